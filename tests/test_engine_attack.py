"""Legality of attack (glossary Attack, Attack Target, Range, Dual Wielding, Frozen, Restriction, Taunt;
9.1.1, 10.5.3, 13.4.2)."""

from __future__ import annotations

from engine_helpers import check, cited

ENEMY = {"field": {"C3": "Knight"}}


def attack(attacker="C3", target="B:C3", **kwargs):
    kwargs.setdefault("phase", "combat")
    kwargs.setdefault("B", ENEMY)
    return check({"attack": attacker, "target": target}, **kwargs)


def test_glossary_attack_front_line_soul_attacks_an_opposing_front_line_soul():
    assert attack(A={"field": {"C3": "Warlord"}}) == []


def test_glossary_attack_only_in_the_combat_phase():
    assert "glossary/combat-phase" in cited(attack(phase="preparation", A={"field": {"C3": "Warlord"}}))


def test_glossary_attack_from_the_front_line_only():
    v = attack("altar", A={"field": {"C3": "Warlord"}})
    assert "glossary/attack" in cited(v) and "line 2" in v[0].text


def test_glossary_range_allows_the_second_line_but_not_the_third():
    assert attack("Cr1", A={"field": {"Cr1": "Archer", "Cr1·0": "Grunt"}}) == []
    v = attack("Cr1", A={"field": {"C3": "Warlord", "Cr1": "Archer", "Cr1·0": "Grunt", "C2": "Knight"}})
    assert v == []  # still line 2: C2 is a sibling, not in front of Cr1
    v = attack("C3", A={"field": {"C3": "Archer", "Cr1": "Squire", "Cr1·0": "Grunt"}})
    assert "glossary/range" in cited(v) and "line 3" in v[0].text


def test_glossary_attack_recruited_in_an_earlier_turn():
    v = attack(A={"field": {"C3": {"card": "Warlord", "recruited": "this_turn"}}})
    assert "glossary/recruit" in cited(v)


def test_glossary_attack_on_a_proactive_slot():
    v = attack(A={"field": {"C3": "Warlord"}, "turns_taken": 3, "proactive": ["C2"]})
    assert "glossary/proactive" in cited(v)


def test_glossary_dual_wielding_two_attacks_per_combat_phase():
    assert attack("Cm1", A={"field": {"Cm1": {"card": "Twinblade", "attacks_made": 1}}}) == []
    v = attack("Cm1", A={"field": {"Cm1": {"card": "Twinblade", "attacks_made": 2}}})
    assert "glossary/dual-wielding" in cited(v)
    v = attack("Cm1", A={"field": {"Cm1": {"card": "Squire", "attacks_made": 1}}})
    assert "glossary/attack" in cited(v) and "may make 1" in v[0].text


def test_13_4_2_two_dual_wielding_still_allow_two_attacks():
    lasting = [{"grant": "dual_wielding", "to": "A:Cm1", "until": "end_of_turn", "source": "A:altar"}]
    v = attack("Cm1", lasting=lasting, A={"field": {"Cm1": {"card": "Twinblade", "attacks_made": 2}}})
    assert "13.4.2" in cited(v)


def test_glossary_frozen_soul_cant_attack():
    v = attack("Cm1", A={"field": {"Cm1": "Ice Statue"}})
    assert "glossary/frozen" in cited(v)


def test_glossary_restriction_cannot_attack():
    lasting = [{"grant": "cannot_attack", "to": "A:C3", "until": "end_of_turn", "source": "Chains",
                "controller": "B"}]
    assert "glossary/restriction" in cited(attack(lasting=lasting, A={"field": {"C3": "Warlord"}}))


def test_glossary_attack_target_must_be_in_the_front_line():
    v = attack(target="B:altar", A={"field": {"C3": "Warlord"}})
    assert "glossary/attack-target" in cited(v)


def test_glossary_attack_target_not_a_captured_soul():
    v = attack(A={"field": {"C3": "Warlord"}}, B={"field": {"C3": {"card": "Knight", "captured": True}}})
    assert "glossary/attack-target" in cited(v)


def test_10_5_3_a_realm_can_be_attacked_wherever_it_stands():
    assert attack(target="B:realm1", A={"field": {"C3": "Warlord"}},
                  B={"field": {"C3": "Knight"}, "realms": {"realm1": "Temple"}}) == []
    v = attack(target="B:realm1", A={"field": {"C3": "Warlord"}},
               B={"field": {"C3": "Knight"}, "realms": {"realm1": {"card": "Temple", "shattered": True}}})
    # 10.5.4: a shattered Realm is face down, not active, so no Attack Target; the refusal names it
    assert {"10.5.4", "glossary/attack-target"} <= cited(v) and "Temple" in v[0].text


TAUNT_FIELD = {"field": {"C3": "Warlord", "C2": "Wall", "Cm1": "Squire", "Cr1": "Archer"}}


def test_glossary_taunt_protects_souls_that_share_its_direct_superior():
    v = attack(target="B:Cm1", B=TAUNT_FIELD, A={"field": {"C3": "Warlord"}})
    assert "glossary/taunt" in cited(v) and "Wall (B:C2)" in v[0].text


def test_glossary_taunt_the_taunt_soul_itself_can_be_attacked():
    assert attack(target="B:C2", B=TAUNT_FIELD, A={"field": {"C3": "Warlord"}}) == []


def test_glossary_taunt_only_while_the_taunt_soul_stands_in_the_front_line():
    field = {"field": {**TAUNT_FIELD["field"], "C2·0": "Grunt"}}
    assert attack(target="B:Cm1", B=field, A={"field": {"C3": "Warlord"}}) == []


def test_glossary_taunt_a_soul_with_taunt_of_at_least_the_protectors_rank_can_be_attacked():
    field = {"field": {"C3": "Warlord", "C2": "Big Wall", "Cm1": "Wall"}}
    # Wall (rank 1) has Taunt but a lower rank than Big Wall (rank 2): protected
    assert "glossary/taunt" in cited(attack(target="B:Cm1", B=field, A={"field": {"C3": "Warlord"}}))
    # Big Wall (rank 2) has Taunt of at least Wall's rank: Wall does not protect it
    assert attack(target="B:C2", B=field, A={"field": {"C3": "Warlord"}}) == []


def test_glossary_taunt_an_attacker_unyielding_against_its_source_ignores_it():
    assert attack("C2", target="B:Cm1", B=TAUNT_FIELD, A={"field": {"C2": "Test Noah"}}) == []


def test_glossary_taunt_the_armament_is_the_source_of_granted_taunt_but_souls_ranks_count():
    field = {"field": {"C3": "Warlord", "C2": {"card": "Squire", "armament": "Great Shield"},
                       "Cm1": "Squire"}}
    field["field"]["C2"]["card"] = "Knight"
    # Great Shield (rank 2) gives Knight Taunt: Noah (rank 2) is Unyielding against it and ignores it
    assert attack("C2", target="B:Cm1", B=field, A={"field": {"C2": "Test Noah"}}) == []
    assert "glossary/taunt" in cited(attack(target="B:Cm1", B=field, A={"field": {"C3": "Warlord"}}))
