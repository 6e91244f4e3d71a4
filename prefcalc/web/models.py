"""What the JSON API takes and gives, as pydantic models: the OpenAPI description is made of
them, and a body that does not fit is refused in one line (:func:`body_refusal`). A line's
limits and their words are the table service's (:mod:`prefcalc.table.lines`)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError

from prefcalc.i18n import N_
from prefcalc.table.lines import (
    BAD_ID,
    ID_PATTERN,
    LINE_TOO_LONG,
    MAX_ID,
    MAX_LINE,
    MIN_ID,
    ONE_LINE,
)
from prefcalc.views.words import say

EMPTY_BODY = N_("the request body is not JSON: it is empty")
BODY_SHAPE = N_('send {"line": "<a play line>"}')

__all__ = ["MAX_ID", "MAX_LINE", "MIN_ID", "LineAnswer", "LineBody", "Problem", "Seats"]


def _one_line(line: str) -> str:
    if "\n" in line or "\r" in line:
        raise PydanticCustomError("line_break", ONE_LINE)
    return line


class LineBody(BaseModel):
    """One ``prefcalc play`` line: a deal in the table's shorthand or a play command."""

    model_config = ConfigDict(strict=True, extra="forbid")

    line: Annotated[
        str,
        Field(
            max_length=MAX_LINE,
            description="A line as `prefcalc play` takes it, without line breaks.",
            examples=["game Anna 7h 7 Boris:w Vera:p", "a 7h 7 b:w v:p", "undo"],
        ),
        AfterValidator(_one_line),
    ]
    id: Annotated[
        str | None,
        Field(
            min_length=MIN_ID,
            max_length=MAX_ID,
            pattern=ID_PATTERN,
            description=(
                "A random name of this request, chosen by the page (8-64 letters, digits,"
                " `-`, `_`). The server keeps the answers of the last requests it carried"
                " out by their id: the same id again (a double tap, a retry after a lost"
                " answer) is answered with the first answer and writes nothing. A new deal,"
                " even the same deal again, has a new id. Without an id, every request is"
                " carried out."
            ),
            examples=["k3J9-x0qPz2a"],
        ),
    ] = None


class LineAnswer(BaseModel):
    """What the line did."""

    output: str = Field(description="What `prefcalc play` prints for the line.")
    deals: int = Field(description="The ledger's entries after the line (deals and changes).")


class Seats(BaseModel):
    """Who deals next and who holds no cards."""

    players: list[str] = Field(description="The players in seating order.")
    next_dealer: str
    sitting_out: list[str] = Field(description="The next dealer at four, and one more at five.")
    lowest_contract: int = Field(description="The lowest legal contract of the next deal.")
    finished: bool
    deals: int = Field(description="The deals recorded: the count of `show --json`.")


class Problem(BaseModel):
    """Any answer but 200: the refusal in one line."""

    error: str = Field(examples=["there is no contract level 5 in '5h' (levels are 6-10)"])


def problem(description: str) -> dict[str, Any]:
    """An entry of a route's ``responses``: a refusal's status, documented."""
    return {"model": Problem, "description": description}


def body_refusal(error: dict[str, Any], lang: str) -> str | None:
    """The one-line message, in ``lang``, of a validation ``error`` of the line's body, or
    None when the error is not about the body."""
    where = tuple(error.get("loc", ()))
    if where[:1] != ("body",):
        return None
    kind = error.get("type")
    if kind == "string_too_long" and where == ("body", "line"):
        return say(lang, LINE_TOO_LONG, n=MAX_LINE)
    if kind == "line_break":
        return say(lang, ONE_LINE)
    if kind == "missing" and where == ("body",):
        return say(lang, EMPTY_BODY)
    if where == ("body", "id"):
        return say(lang, BAD_ID, least=MIN_ID, most=MAX_ID)
    return say(lang, BODY_SHAPE)
