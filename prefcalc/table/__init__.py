"""The table service: the operations on one game, below every front end of a table.

- :mod:`prefcalc.table.service`: :class:`~prefcalc.table.service.Service`, one game's table:
  its readings (one load of the ledger, with its version), its one write (a ``play`` line,
  once per request id), each operation entered in one place (its lock, its language);
- :mod:`prefcalc.table.lines`: the runner of a ``play`` line that ``play``, serve and the app
  share, and the limits of a page's line and of a request's id;
- :mod:`prefcalc.table.answers`: the answers kept by request id.

``prefcalc serve``'s routes and the app's engine call it; ``play`` runs its lines through
:func:`prefcalc.table.lines.run_line`. Nothing here imports a front end's library (the app's
engine runs it in the phone's Python), and nothing is imported by this package's ``__init__``
(``play`` loads only the runner).
"""
