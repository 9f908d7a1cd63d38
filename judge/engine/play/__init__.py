"""Play: the trace, the resolution context, zones, effects, the Cascade, battle, placing, turns and the
steps that explain consequences and non-events. Imports `data`, `position`, `rules`. See docs/ENGINE.md."""
