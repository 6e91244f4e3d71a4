"""The rules of the game: the record's types, amounts, conventions, the notation, legality,
scoring and settlement. Pure functions of (record, convention); imports nothing above it."""
