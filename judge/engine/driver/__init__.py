"""The verb table, loading a scenario, resolving it to a ruling and the contract's dicts (`api`), and the
vocabulary. The top layer of the engine. See docs/ENGINE.md."""
