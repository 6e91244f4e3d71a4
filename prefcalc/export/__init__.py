"""Documents made from a game: the XLSX workbook and the printable PDF scoresheet.

Each module imports its heavy library (openpyxl, reportlab) itself, and the CLI imports
the module only in the command that exports, so recording a deal stays fast.
"""
