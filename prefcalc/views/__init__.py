"""Text and JSON renderings of finished results (the sheet, the settlement, the history)."""
