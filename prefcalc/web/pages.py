"""The pages of ``prefcalc serve``: the watcher's page, the scorer's page and the pool sheet
drawn as on paper. The pages speak the table's language: the templates through Jinja2's i18n
extension with prefcalc's catalog (:func:`install_words`), the scripts through the words of
:func:`prefcalc.views.words.script_words`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates

from prefcalc import __version__
from prefcalc.i18n import catalog
from prefcalc.views.words import script_words
from prefcalc.web.table import Table, TableDep

HERE = Path(__file__).resolve().parent
NO_STORE = {"Cache-Control": "no-store"}


def install_words(env: Any, lang: str) -> None:
    """Translate the templates of ``env`` into ``lang`` (Jinja2's i18n extension, new style:
    ``{{ _("text %(name)s", name=...) }}``)."""
    env.add_extension("jinja2.ext.i18n")
    found = catalog(lang)
    env.install_gettext_callables(
        gettext=found.gettext,
        ngettext=found.ngettext,
        pgettext=found.pgettext,
        newstyle=True,
    )


class Pages:
    """The templates of one application, in its table's language, and the scripts' words."""

    def __init__(self, table: Table) -> None:
        self.templates = Jinja2Templates(directory=str(HERE / "templates"))
        install_words(self.templates.env, table.lang)
        self.context: dict[str, Any] = {
            "lang": table.lang,
            "read_only": table.read_only,
            "version": __version__,
            "words": script_words(table.lang),
        }

        self.table = table

    async def render(self, request: Request, name: str) -> HTMLResponse:
        """The page ``name`` (in Russian its script asks for the players' names in their
        cases before each reading: ``GET /api/cases``)."""
        # under a tournament's hall the table's pages live at /t/<round>/<table>/ (its root path)
        context = {**self.context, "base": request.scope.get("root_path", "")}
        return self.templates.TemplateResponse(request, name, context, headers=NO_STORE)


def pages(request: Request) -> Pages:
    """The dependency: the application's pages."""
    found: Pages = request.app.state.pages
    return found


PagesDep = Annotated[Pages, Depends(pages)]

router = APIRouter(tags=["the pages"])


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
async def watch_page(request: Request, pages: PagesDep) -> HTMLResponse:
    return await pages.render(request, "watch.html")


@router.get("/score", response_class=HTMLResponse, include_in_schema=False)
async def score_page(request: Request, pages: PagesDep) -> HTMLResponse:
    return await pages.render(request, "score.html")


@router.get(
    "/sheet.svg",
    summary="The pool sheet drawn as on paper (SVG)",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}, "description": "The sheet."}},
)
async def sheet_picture(table: TableDep) -> Response:
    svg = await table.run(table.service.sheet_svg)
    return Response(svg, media_type="image/svg+xml", headers=NO_STORE)
