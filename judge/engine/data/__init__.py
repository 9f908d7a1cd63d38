"""The engine's lowest layer: the edition, its slot tree and numbers, the card records and their
reading, the effect parts, input checks, errors, YAML reading and the budget. See docs/ENGINE.md."""
