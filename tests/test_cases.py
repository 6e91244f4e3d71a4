"""Players' names in the Russian cases (prefcalc.cases): the forms a Russian reader expects,
the game's genders, what stays as typed, and the formatting of the Russian messages."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prefcalc.cases import (
    CASES,
    FORMATTER,
    Text,
    declinable,
    decline,
    forms,
    guess_gender,
)
from prefcalc.i18n import voice

# genitive, dative, accusative, instrumental, prepositional: as a Russian writes them
FORMS = {
    "Гена": ("Гены", "Гене", "Гену", "Геной", "Гене"),
    "Дима": ("Димы", "Диме", "Диму", "Димой", "Диме"),
    "Саша": ("Саши", "Саше", "Сашу", "Сашей", "Саше"),
    "Любовь": ("Любови", "Любови", "Любовь", "Любовью", "Любови"),
    "Лев": ("Льва", "Льву", "Льва", "Львом", "Льве"),
    "Пётр": ("Петра", "Петру", "Петра", "Петром", "Петре"),
    "Аня": ("Ани", "Ане", "Аню", "Аней", "Ане"),
    "Боря": ("Бори", "Боре", "Борю", "Борей", "Боре"),
    "Вера": ("Веры", "Вере", "Веру", "Верой", "Вере"),
    "Глеб": ("Глеба", "Глебу", "Глеба", "Глебом", "Глебе"),
    "Маша": ("Маши", "Маше", "Машу", "Машей", "Маше"),
    "Петя": ("Пети", "Пете", "Петю", "Петей", "Пете"),
    "Оля": ("Оли", "Оле", "Олю", "Олей", "Оле"),
    "Игорь": ("Игоря", "Игорю", "Игоря", "Игорем", "Игоре"),
    "Илья": ("Ильи", "Илье", "Илью", "Ильёй", "Илье"),
    "Никита": ("Никиты", "Никите", "Никиту", "Никитой", "Никите"),
    "Женя": ("Жени", "Жене", "Женю", "Женей", "Жене"),
    "Серёжа": ("Серёжи", "Серёже", "Серёжу", "Серёжей", "Серёже"),  # not «Серёжой»
    "Анна-Мария": ("Анны-Марии", "Анне-Марии", "Анну-Марию", "Анной-Марией", "Анне-Марии"),
    "ВЕРА": ("ВЕРЫ", "ВЕРЕ", "ВЕРУ", "ВЕРОЙ", "ВЕРЕ"),
}


@pytest.mark.parametrize("name", sorted(FORMS))
def test_every_case_of_a_name(name: str) -> None:
    assert decline(name, "nom") == name
    assert tuple(decline(name, case) for case in CASES[1:]) == FORMS[name]


@pytest.mark.parametrize("gender", ["m", "f"])
def test_an_open_name_declines_alike_in_either_gender(gender: str) -> None:
    for name in ("Женя", "Саша"):
        assert guess_gender(name) is None
        with voice(genders={name: gender}):
            assert tuple(decline(name, c) for c in CASES[1:]) == FORMS[name]
        assert tuple(decline(name, c, gender) for c in CASES[1:]) == FORMS[name]


def test_the_games_gender_decides_where_it_matters() -> None:
    assert guess_gender("Лев") == "m" and guess_gender("Вера") == "f"
    assert guess_gender("Боря") == "m"
    with voice(genders={"Лев": "f"}):  # a woman called Лев (a nickname): a woman's name in a
        assert decline("Лев", "gen") == "Лев"  # consonant does not decline
        assert decline("Боря", "gen") == "Бори"  # the others as guessed
        with voice(genders={}):  # nested: the inner table only
            assert decline("Лев", "gen") == "Льва"
        assert decline("Лев", "dat") == "Лев"
    assert decline("Лев", "gen") == "Льва"  # after the block: the guess again
    assert decline("Лев", "gen", "f") == "Лев"  # an explicit gender overrides all
    with voice(genders={"Лев": "x", "": "f"}):  # not a gender, not a name: ignored
        assert decline("Лев", "gen") == "Льва"


def test_the_table_belongs_to_the_thread_that_set_it() -> None:
    seen: list[str] = []
    with voice(genders={"Лев": "f"}):
        worker = threading.Thread(target=lambda: seen.append(decline("Лев", "gen")))
        worker.start()
        worker.join()
        assert decline("Лев", "gen") == "Лев"
    assert seen == ["Льва"]


@pytest.mark.parametrize(
    "name",
    [
        "Anna",  # Latin
        "Aня",  # a Latin A that looks Russian
        "Анnа",  # a Latin n inside
        "Αня",  # a Greek alpha
        "Ан\u200bя",  # a zero-width space
        "Аня\u200d",  # a zero-width joiner at the end
        "Ани\u0306",  # й written as и + a combining breve
        "А",  # one letter
        "Я",
        "Аня Б.",  # two words
        "Аня-",  # a hyphen with nothing after it
        "-Аня",
        "Аня--Боря",
        "Аня-Б",  # a one-letter part
        "Боря2",
        "",
        "   ",
        "аня" * 20,  # longer than any name
        "Қайрат",  # a Kazakh letter
        "Їжак",  # a Ukrainian letter
    ],
)
def test_what_prefcalc_does_not_decline_stays_as_typed(name: str) -> None:
    assert not declinable(name)
    assert guess_gender(name) is None
    for case in CASES:
        assert decline(name, case) == name


def test_an_unknown_case_code_or_a_name_no_rule_knows_stays_as_typed() -> None:
    assert decline("Боря", "voc") == "Боря"
    assert decline("Боря", "") == "Боря"
    assert decline("Ли", "gen") == "Ли"  # no rule: as typed
    assert decline("Айгуль", "dat") == "Айгуль"


@given(st.text(max_size=60), st.sampled_from(CASES))
def test_declining_anything_never_fails(text: str, case: str) -> None:
    out = decline(text, case)
    assert isinstance(out, str)
    if not declinable(text):
        assert out == text
    else:
        assert out[0] == text[0] and out.count("-") == text.count("-")


@given(st.from_regex(r"[А-ЯЁ][а-яё]{1,10}", fullmatch=True), st.sampled_from(CASES))
def test_a_declined_name_keeps_its_stem_letter(name: str, case: str) -> None:
    out = decline(name, case)
    assert out[0] == name[0] and len(out) >= 2 and declinable(out)


def test_russian_text_formats_the_cases_and_everything_else_as_str_format() -> None:
    text = Text("{payer} платит {payee:dat} {amount}")
    assert isinstance(text, str) and text == "{payer} платит {payee:dat} {amount}"
    assert text.format(payer="Аня", payee="Вера", amount="5 ₽") == "Аня платит Вере 5 ₽"
    assert text.format_map({"payer": "Аня", "payee": "Anna", "amount": 5}) == ("Аня платит Anna 5")
    assert type(text.format(payer="a", payee="b", amount=1)) is str
    for template, args in [
        ("{a} и {b}", {"a": 1, "b": "x"}),
        ("{n:>5}|{x:.2f}|{b!r}|{{}}", {"n": 7, "x": 1 / 3, "b": "Боря"}),
        ("{0} {1:dat}", {}),
        ("{size:.1f} МиБ, 0x{byte:02x}", {"size": 2.25, "byte": 10}),
    ]:
        if template.startswith("{0}"):
            assert Text(template).format("Аня", "Боря") == "Аня Боре"
            continue
        assert Text(template).format(**args) == template.format(**args)
    # a case on a value that is no name: written as it is
    assert Text("{n:dat} {d:gen}").format(n=5, d=None) == "5 None"
    # an integer grouped with ',' is grouped the Russian way, with the minus sign
    assert Text("от {a:,} до {b:,}").format(a=-1_000_000_000, b=4096) == (
        "от \N{MINUS SIGN}1\xa0000\xa0000\xa0000 до 4\xa0096"
    )
    assert FORMATTER.format("{x:,}", x=True) == f"{True:,}"  # as str.format
    with pytest.raises(KeyError):
        Text("{missing:acc}").format()


def test_forms_for_the_pages_scripts() -> None:
    table = forms(["Аня", "Anna", "Лев"])
    assert table == {
        "Аня": {"gen": "Ани", "dat": "Ане", "acc": "Аню", "ins": "Аней", "pre": "Ане"},
        "Лев": {"gen": "Льва", "dat": "Льву", "acc": "Льва", "ins": "Львом", "pre": "Льве"},
    }
    with voice(genders={"Лев": "f"}):
        assert forms(["Лев"])["Лев"]["dat"] == "Лев"


def test_english_never_imports_the_declension() -> None:
    code = (
        "import sys\n"
        "from prefcalc.cli import main\n"
        "try:\n"
        "    main(['--lang', 'en', 'examples'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "from prefcalc.i18n import _, voice\n"
        "with voice(lang='en'):\n"
        "    assert _('whists on {player}').format(player='Боря') == 'whists on Боря'\n"
        "assert 'pytrovich' not in sys.modules, 'English imported pytrovich'\n"
        "with voice(lang='ru'):\n"
        "    assert 'pytrovich' not in sys.modules, 'no Russian name declined yet'\n"
        "    assert _('whists on {player}').format(player='Боря') == 'висты на Борю'\n"
        "assert 'pytrovich' in sys.modules\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
