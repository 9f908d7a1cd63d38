"""The ruling desk: the runner (the desk's door to the engine, with the web's limits), board pictures,
saved rulings. The scenario library it shows is `judge.library`; its links are built by
`judge.web.links`.
"""
