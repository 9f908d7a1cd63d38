"""The embedded engine. Part 1 (engine-core): the field, cards, stored state, scenario loading,
derived values and legality. Part 2 (engine-resolve): resolution. See docs/ENGINE.md.

The public entry points are in `judge.engine.api`.
"""
