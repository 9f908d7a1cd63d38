"""Legality: the moment (window), the checks verbs share, one `verify_<verb>` per verb and the
candidates of each verb. Imports `data` and `position`. See docs/ENGINE.md."""
