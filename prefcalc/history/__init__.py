"""The club's history: every game in a folder, every player across the season."""
