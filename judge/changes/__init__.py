"""Edition changes, in one home: what changed between two editions of the Codex (`diff`: rules,
glossary entries, the edition data), what that does to every library ruling and every saved ruling
(`rulings`), and the `judge changes` command (`cli`). The web's /changes pages read `rulings`.
Layers: above the saved rulings (it reads them), below the web.
"""
