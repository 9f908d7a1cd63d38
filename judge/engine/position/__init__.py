"""A position: the stored state, an action, the slot tree's lines, conditions, targets and the derived
board. Imports only `data`. See docs/ENGINE.md."""
