"""The ruling desk: board pictures, saved rulings, the scenario library.

`rulings_citing(rule_id)` lists the library rulings that cite a rule (registered as the Jinja
global of the same name by the desk blueprint, for the rule pages).
"""

from judge.desk.library import rulings_citing

__all__ = ["rulings_citing"]
