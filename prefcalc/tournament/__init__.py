"""Tournaments: a folder of games (issue 28, docs/tournament.md).

A tournament is a folder holding ``tournament.json`` (the players, the rounds, the
convention, the scoring, the seed and the draw of every round) beside one ordinary ledger per
table and round (``r1-t1.json``...), so every command that works on a game works on a table.
Everything shown (the standings, the protocols, the exports) is a pure function of the folder.

The modules, from the bottom up (each imports only those above it in this list, and the
game's own API):

* :mod:`~prefcalc.tournament.plans`: how many tables of 4 and of 3 seat N players;
* :mod:`~prefcalc.tournament.conversions`: a table's results turned into points (``raw``,
  ``cutoffs``, ``bands``, ``places``, ``per_deal``), exact;
* :mod:`~prefcalc.tournament.draw`: the seating of a round (round 1 from the seed, then Swiss);
* :mod:`~prefcalc.tournament.model`: ``tournament.json`` as strict pydantic models;
* :mod:`~prefcalc.tournament.folder`: reading and writing the folder (atomic draws, the lock);
* :mod:`~prefcalc.tournament.standings`: every table read through the API, the standings;
* :mod:`~prefcalc.tournament.protocol`: a table's protocol (Code 4.2.11) as values;
* :mod:`~prefcalc.tournament.text`, :mod:`~prefcalc.tournament.pdf`,
  :mod:`~prefcalc.tournament.xlsx`: the views (text and JSON, PDF, workbook);
* :mod:`~prefcalc.tournament.cli`: the ``prefcalc tournament`` commands.

Nothing is imported here: ``prefcalc --help`` loads only the commands' module.
"""
