"""The commands of the `judge` CLI that run the engine: `judge position`, `judge resolve`, `judge check`."""
