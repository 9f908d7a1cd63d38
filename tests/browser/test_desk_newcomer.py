"""The desk for a newcomer (issue 21), in a real Chromium, read by visible text and roles: a library card
varied in place into a marked card of its own, a custom-card form per type, problems where they are in
words with a fix, a board readable at 1280×800 and on a phone, a forgiving picker, either player's
actions without a turn switch, and nothing lost (Back closes pop-ups first, edits survive a reload,
actions numbered one way and named in words)."""

from __future__ import annotations

import re

import pytest
import yaml
from desk_page import open_desk, settled, slot
from playwright.sync_api import expect

from judge.engine import CARDS_DIR, Problems, load_scenario, parse_card, resolve

pytestmark = pytest.mark.browser

# Noah: a rank-2 library Soul, Unyielding (codex/cards/reconstructed.yaml); Harold rank 1; Chrome Chains
# a rank-0 Event; the sample position (judge/desk/starts.yaml) has Noah on A's C3, Harold on B's C3.
ALTAR_MISSING = """\
state:
  turn_player: A
  phase: preparation
  turn: 9
  players:
    A:
      field: {altar: Queen Sol, C3: Stom Titan}
    B:
      field: {C3: Harold}
actions: []
"""


desk = open_desk


def label(page, ref):
    return slot(page, ref).get_attribute("aria-label")


def label_has(page, ref, text):
    page.wait_for_function("([ref, t]) => document.querySelector(`#board g[data-ref=\"${ref}\"]`)"
                           ".getAttribute('aria-label').includes(t)", arg=[ref, text])


def yaml_has(page, text):
    page.wait_for_function("t => document.querySelector('#yaml-text').value.includes(t)", arg=text)


def test_a_library_card_varies_in_place_into_a_named_marked_card_that_never_shadows_it(page, live_server):
    desk(page, live_server)
    assert "rank 1" in label(page, "B:C3") and "rank 3" in label(page, "B:altar")  # each card's rank shown
    slot(page, "A:C3").click()
    assert page.locator("#slot-card-note").text_content() == "A library card, as printed."
    page.get_by_role("button", name="Change this card's values…").click()
    form = page.locator("#custom-form")
    page.get_by_role("heading", name="A variant of Noah").wait_for()
    assert form.get_by_label("ATK", exact=True).input_value() == "15"   # its values filled in
    form.get_by_label("Rank").select_option("1")
    assert form.get_by_label("Name").input_value() == "Noah (rank 1)"  # named for the change
    form.get_by_label("Name").fill("Noah")                              # a library name is refused
    page.get_by_role("button", name="Use this variant").click()
    page.locator("#custom-msg", has_text="Noah is a library card").wait_for()
    form.get_by_label("Name").fill("Noah (rank 1)")
    page.get_by_role("button", name="Use this variant").click()
    page.wait_for_function("() => document.querySelector('#board g[data-ref=\"A:C3\"]')"
                           ".getAttribute('aria-label').includes('variant of Noah')")
    words = label(page, "A:C3")
    assert "Noah (rank 1)" in words and "rank 1" in words and "Unyielding" in words
    assert "variant" in slot(page, "A:C3").text_content()               # marked on the board itself
    yaml_has(page, "origin: variant of Noah")
    yaml_has(page, "name: Noah (rank 1)")
    # the library's Noah is still there, as printed, beside the variant
    slot(page, "B:R2").click()
    page.fill("#card-q", "noah")
    page.locator('#card-results button[data-card="Noah (rank 1)"]', has_text="variant of Noah").wait_for()
    assert "rank 2" in page.locator('#card-results button[data-card="Noah"]').text_content()
    assert page.problems == []


def test_the_custom_card_form_shows_only_its_types_fields_and_speaks_in_words(page, live_server):
    desk(page, live_server)
    slot(page, "B:C3").click()
    page.get_by_role("button", name="Set an Ambush here…").click()
    page.get_by_role("button", name="Make a custom card…").click()
    form = page.locator("#custom-form")
    assert form.get_by_label("Type").input_value() == "ambush"          # preset from where it opened
    for hidden in ("ATK", "DEF", "HP", "Leader"):
        assert not form.get_by_label(hidden, exact=True).is_visible(), hidden
    assert not form.locator("fieldset.keywords").is_visible()
    does = form.get_by_label("What it does")
    options = does.locator("option").all_text_contents()
    assert "deals … damage to whom" in options and "returns whom to its owner's hand" in options
    assert not any("_" in o for o in options)                           # words, not the engine's names
    does.select_option(label="returns whom to its owner's hand")
    assert not form.get_by_label("Amount", exact=True).is_visible()    # only the fields the part takes
    assert not form.get_by_label("Until").is_visible()
    whom = form.get_by_label("Acts on")
    offered = [o.text_content() for o in whom.locator("option").all() if o.is_enabled()]
    assert whom.is_visible() and "the Ambusher" in offered
    # an Ambush has no Caster of its own: "the Caster" is the Caster of the Event it answers
    # (interpretation/answered-caster); "the Wielder" it has none of
    assert "the Caster" in offered and "the Wielder" not in offered
    assert not any("_" in o for o in whom.locator("option").all_text_contents())
    does.select_option(label="whom gains +… ATK")
    assert form.get_by_label("Until").is_visible() and form.get_by_label("Amount", exact=True).is_visible()
    until = form.get_by_label("Until").locator("option").all_text_contents()
    assert "the end of the opponent's next turn" in until
    form.get_by_label("It targets").select_option(label="an opposing Soul in the Front Line")
    does.select_option(label="returns whom to its owner's hand")
    page.get_by_role("button", name="Add the card").click()
    page.locator("#ambush-list li", has_text="My Ambush").wait_for()
    yaml_has(page, "- return: target")
    settled(page)
    assert page.locator("#problems-panel").is_hidden()                  # the position still holds
    page.get_by_role("button", name="Done").click()
    # from a realm slot the form is a Realm's: values, no keywords
    slot(page, "A:realm1").click()
    page.get_by_role("button", name="Make a custom card…").click()
    assert form.get_by_label("Type").input_value() == "realm"
    assert form.get_by_label("ATK", exact=True).is_visible()
    assert not form.locator("fieldset.keywords").is_visible()
    assert not form.get_by_label("Attribute").is_visible()
    assert page.problems == []


def test_problems_show_at_the_slot_and_beside_it_in_words_each_with_a_fix(page, live_server):
    desk(page, live_server)
    page.fill("#yaml-text", ALTAR_MISSING)
    page.click("#yaml-load")
    panel = page.get_by_role("region", name="Fix these first")
    panel.get_by_text("A's C3: no card named 'Stom Titan'").wait_for()
    assert "did you mean Storm Titan?" in panel.text_content()
    assert "state.players" not in panel.text_content()                 # key paths stay in the YAML view
    assert "state.players.A.field.C3" in page.locator("#yaml-problems").text_content()
    assert "problem" in label(page, "A:C3") and "⚠ a problem" in slot(page, "A:C3").text_content()
    panel.get_by_role("button", name="Use Storm Titan").click()
    panel.get_by_text("B has no Leader on the altar: choose one").wait_for()   # the next one, in words
    assert "⚠ a problem" in slot(page, "B:altar").text_content()
    assert "Storm Titan" in label(page, "A:C3")
    panel.get_by_role("button", name="Choose B's Leader").click()
    page.locator("#picker-for", has_text="a Leader").wait_for()
    page.locator('#card-results button[data-card="King Umbra"]').click()
    page.locator("#problems-panel").wait_for(state="hidden")
    settled(page)
    # an empty board starts valid: Leaders chosen, something to do at once
    page.get_by_role("button", name="An empty board").click()
    page.wait_for_function("() => document.querySelector('#board g[data-ref=\"B:altar\"].occupied')")
    settled(page)
    assert page.locator("#problems-panel").is_hidden()
    assert "problem" not in label(page, "A:altar")


def test_the_board_reads_at_12_px_at_1280x800_with_names_and_a_legend(page, live_server):
    desk(page, live_server)
    sizes = page.evaluate("""() => {
      const out = {};
      for (const t of document.querySelectorAll('#board svg text')) {
        const px = t.getScreenCTM().a * parseFloat(getComputedStyle(t).fontSize);
        const cls = t.getAttribute('class');
        out[cls] = Math.min(out[cls] ?? 99, px);
      }
      return out; }""")
    for cls in ("card-name", "card-rank", "stats", "slot-name", "slot-line", "keywords", "band-text"):
        assert sizes[cls] >= 12, (cls, sizes)
    legend = page.get_by_text("What the board shows")
    assert legend.is_visible()
    assert "Front Line" in page.locator(".board-legend").text_content()
    assert "the digit is the slot's rank" in page.locator(".board-legend").text_content()
    slot(page, "B:R2").click()
    page.fill("#card-q", "Stubborn Recruit")
    page.locator('#card-results:not([aria-busy]) button[data-card="Stubborn Recruit"]').click()
    page.wait_for_function("() => document.querySelector('#board g[data-ref=\"B:R2\"].occupied')")
    assert "Stubborn R." in slot(page, "B:R2").locator(".card-name").text_content()  # a readable abbreviation
    assert "Stubborn Recruit" in label(page, "B:R2")                   # the whole name on hover and focus
    assert "Stubborn Recruit" in slot(page, "B:R2").locator("title").text_content()


def test_on_a_phone_the_board_fits_the_width_and_the_panel_opens_at_the_slot(page, live_server):
    desk(page, live_server, 390, 844)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    words = page.get_by_role("group", name="The board in words: tap a slot")
    assert words.is_visible() and "Harold" in words.text_content()
    empty = page.get_by_role("button", name="A:L1, empty soul slot of rank 1")
    empty.scroll_into_view_if_needed()
    below = empty.bounding_box()
    empty.click()
    picker = page.locator("#picker")
    picker.wait_for()
    top = picker.bounding_box()["y"]
    assert below["y"] + below["height"] <= top <= below["y"] + below["height"] + 40  # just under the slot
    page.locator("#card-results button.card-option").first.click()
    page.get_by_role("button", name="Done").click()
    words.locator(".words-rows button", has_text="L1").first.wait_for()


def test_the_picker_forgives_typos_ranks_keywords_and_types(page, live_server):
    desk(page, live_server)
    slot(page, "B:R2").click()
    page.fill("#card-q", "Stubborn Sqire")
    page.get_by_text("did you mean Stubborn Squire?").wait_for()        # the YAML box's did-you-mean
    page.locator('#card-results button[data-card="Stubborn Squire"]').wait_for()
    page.fill("#card-q", "rank 1")
    page.wait_for_function("() => { const metas = [...document.querySelectorAll('#card-results .meta')];"
                           " return metas.length > 2 && metas.every(m => / rank 1/.test(m.textContent)); }")
    page.fill("#card-q", "unyielding")
    page.locator('#card-results:not([aria-busy]) button[data-card="Noah"]').wait_for()  # rank 2: not "rank 1"
    assert all("unyielding" in k.lower() for k in page.locator("#card-results .kw").all_text_contents())
    page.get_by_role("button", name="Close").click()
    page.get_by_role("button", name="Add a card to A's Hand").click()
    page.fill("#card-q", "dark event")
    page.wait_for_function("() => [...document.querySelectorAll('#card-results .meta')].every(m => "
                           "m.textContent.includes('Event'))")
    page.locator('#card-results button[data-card="Chrome Chains"]').wait_for()
    # a light Event: gone once the results are the query's (the picker may still show its opening list)
    expect(page.locator('#card-results button[data-card="Firebolt"]')).to_have_count(0)


def test_either_players_actions_are_offered_saying_when_without_switching_turns(page, live_server):
    desk(page, live_server)
    settled(page)
    assert "only the turn player acts" in page.locator("#turn-why").text_content()
    heading = page.get_by_role("heading", name="Player B, as the turn player, once A's turn ends")
    later = page.locator(".next-group", has=heading)
    offered = later.locator(".next-action").first
    assert "after A ends their turn" in offered.text_content()
    offered.click()
    page.locator("#queue li").nth(3).wait_for()
    page.locator("#queue", has_text="A ends the Emplacement Phase").wait_for()
    queue = page.locator("#queue .action-text").all_text_contents()
    assert queue[:3] == ["A ends the Preparation Phase", "A ends the Combat Phase",
                         "A ends the Emplacement Phase"]
    assert page.locator("#s-turn-player").input_value() == "A"         # no switch was needed
    page.get_by_role("button", name="Resolve", exact=True).click()
    page.wait_for_selector(".desk.stepping #ruling-out .step")
    assert page.locator("#ruling-out .rejected").count() == 0
    assert "B is the turn player" in page.locator("#ruling-out").text_content()


def test_an_action_not_offered_is_aimed_from_the_board_and_ruled_in_words_numbered_one_way(page, live_server):
    desk(page, live_server)
    page.get_by_role("button", name="Add a card to B's Hand").click()
    page.fill("#card-q", "chrome")
    page.locator('#card-results:not([aria-busy]) button[data-card="Chrome Chains"]').click()
    settled(page)
    page.get_by_role("button", name="Aim Chrome Chains at another card…").first.click()
    slot(page, "A:C3").click()                                          # Noah: Unyielding, so not offered
    page.locator("#queue li.illegal").wait_for()
    queue = page.locator("#queue").text_content()
    assert "Not legal here: Noah (A:C3, rank 2) is Unyielding" in queue
    page.get_by_role("button", name="Resolve", exact=True).click()
    page.wait_for_selector(".desk.stepping #ruling-out .step")
    ruling = page.locator("#ruling-out").text_content()
    assert re.search(r"Action 4, “B casts Chrome Chains with \w[\w ]* \(\w+\) at A's Noah \(C3\)”, "
                     r"is not legal", ruling)
    assert "(action 4)" in ruling and "Action 3," not in ruling          # one numbering, from 1
    for raw in ("targets [", "['", "caster L2", "Action 0"):
        assert raw not in ruling and raw not in queue, raw


def test_back_closes_a_pop_up_first_and_each_panel_before_the_page(page, live_server):
    desk(page, live_server)
    settled(page)
    page.locator(".next-action", has_text="A casts Firebolt with Noah (C3) at B's Harold (C3)").click()
    page.get_by_role("button", name="Resolve", exact=True).click()
    page.wait_for_selector(".desk.stepping #ruling-out .step")
    page.locator("#ruling-out .step-rules a[href^='/rules/']").first.click()
    page.locator("#rule-panel").wait_for()
    page.go_back()
    page.locator("#rule-panel").wait_for(state="hidden")
    assert page.url.startswith(f"{live_server}/desk")                   # still at the desk
    page.get_by_role("button", name="Edit the position").click()
    slot(page, "B:R2").click()
    page.locator("#picker").wait_for()
    page.go_back()
    page.locator("#picker").wait_for(state="hidden")
    assert page.url.startswith(f"{live_server}/desk")
    # one Back per context: the step buttons say where they go
    assert page.get_by_role("button", name=re.compile("^◀ Back$")).count() == 0
    assert page.problems == []


def test_an_edit_not_yet_left_survives_a_reload_and_a_fresh_desk_asks_where_to_start(page, live_server):
    desk(page, live_server)
    settled(page)
    slot(page, "B:C3").click()
    page.locator("#f-damage").fill("15")                                # typed, still in the field
    page.wait_for_timeout(400)
    page.reload()
    page.wait_for_selector("#desk[data-ready='1']")
    page.wait_for_function("() => document.querySelector('#board g[data-ref=\"B:C3\"]')"
                           ".getAttribute('aria-label').includes('HP 15/30')")
    page.goto(f"{live_server}/desk")                                    # a fresh /desk with work kept
    page.wait_for_selector("#desk[data-ready='1']")
    banner = page.get_by_role("status").filter(has_text="your desk from")
    assert banner.is_visible()
    banner.get_by_role("button", name="Start with an empty board").click()
    assert banner.is_hidden()
    page.wait_for_function("() => !document.querySelector('#board g[data-ref=\"B:C3\"].occupied')")
    assert "Queen Sol" in label(page, "A:altar")                        # empty, with its Leaders
    page.goto(f"{live_server}/desk")
    page.wait_for_selector("#desk[data-ready='1']")
    assert banner.is_visible()
    slot(page, "B:R2").click()                                          # an edit: the banner stops being true
    page.locator('#card-results button[data-card="Harold"]').click()
    banner.wait_for(state="hidden")


def _scenario_card(page, name):
    cards = yaml.safe_load(page.locator("#yaml-text").input_value()).get("cards") or []
    return next(c for c in cards if c["name"] == name)


def _read(record):
    problems = Problems()
    card = parse_card(record, "cards[0]", problems)
    assert card is not None and not problems
    return card


def _library(name):
    for path in sorted(CARDS_DIR.glob("*.yaml")):
        for record in yaml.safe_load(path.read_text()) or []:
            if isinstance(record, dict) and record.get("name") == name:
                return record
    raise AssertionError(name)


def _defiance_taken(scenario):
    """The damage A's Grey Knight (L2) has after attacking B's Dusk Lancer (L2), by the engine's ruling."""
    scenario = dict(scenario, state=dict(scenario["state"], phase="combat"))
    scenario["actions"] = [{"attack": "L2", "target": "B:L2"}]
    scenario["ask"] = [{"value": {"slot": "A:L2", "of": "damage"}}]
    return resolve(load_scenario(scenario))["answers"][0]


def test_a_variants_effects_are_shown_in_words_and_edited_part_by_part(page, live_server):
    desk(page, live_server)
    harold = _library("Harold")
    # untouched: the variant's effects are the library card's, read the same by the engine's card reader
    slot(page, "B:C3").click()
    page.get_by_role("button", name="Change this card's values…").click()
    page.get_by_role("heading", name="A variant of Harold").wait_for()
    kept = page.get_by_role("group", name="Effect 1: static")
    assert "your other Souls gains the keyword Defiance 5" in kept.text_content()  # in the engine's words
    page.get_by_role("combobox", name="Rank").select_option("0")
    page.get_by_role("button", name="Use this variant").click()
    yaml_has(page, "name: Harold (rank 0)")
    untouched = _scenario_card(page, "Harold (rank 0)")
    assert untouched["effects"] == harold["effects"]
    assert _read(untouched).effects == _read(harold).effects
    # one part's amount changed: only that changes
    page.get_by_role("button", name="Change this card's values…").click()
    page.get_by_role("heading", name="A variant of Harold").wait_for()
    kept.get_by_label("Defiance").fill("10")
    assert "Defiance 10" in kept.text_content()
    name = page.get_by_role("textbox", name="Name", exact=True).input_value()
    assert "changed effects" in name
    page.get_by_role("button", name="Use this variant").click()
    yaml_has(page, f"name: {name}")
    changed = _scenario_card(page, name)
    expected = [dict(harold["effects"][0], grant={"defiance": 10})]
    assert changed["effects"] == expected
    assert changed["keywords"] == harold["keywords"] and changed["atk"] == harold["atk"]
    # and the ruling reads it: Dusk Lancer (B's L2) now has Defiance 10 from the variant, so Grey Knight
    # attacking it takes 5 more Defiance damage than with the library's Harold
    label_has(page, "B:L2", "Defiance 10")
    posed = yaml.safe_load(page.locator("#yaml-text").input_value())
    library = dict(posed, cards=[], state=yaml.safe_load(yaml.safe_dump(posed["state"])))
    library["state"]["players"]["B"]["field"]["C3"] = "Harold"
    with_library, with_variant = _defiance_taken(library), _defiance_taken(posed)
    assert with_variant["verdict"] == with_library["verdict"] + 5
    assert name in with_variant["text"] and "Defiance" in with_variant["text"]


def test_a_variants_effect_is_removed_without_yaml(page, live_server):
    desk(page, live_server)
    slot(page, "B:C3").click()
    page.get_by_role("button", name="Change this card's values…").click()
    page.get_by_role("heading", name="A variant of Harold").wait_for()
    page.get_by_role("button", name="Remove effect 1").click()
    assert page.get_by_role("group", name="Effect 1: static").count() == 0
    page.get_by_role("button", name="Use this variant").click()
    page.wait_for_function("() => document.querySelector('#yaml-text').value.includes('variant of Harold')")
    cards = yaml.safe_load(page.locator("#yaml-text").input_value())["cards"]
    assert [c["effects"] for c in cards] == [[]]


def test_a_keywords_effect_is_edited_a_part_added_and_then_removed_whole(page, live_server):
    desk(page, live_server)
    medic = _library("Field Medic")          # Reinforcement: heal 10 damage from one of your Souls
    slot(page, "B:R2").click()
    page.fill("#card-q", "field medic")
    page.locator('#card-results:not([aria-busy]) button[data-card="Field Medic"]').click()
    label_has(page, "B:R2", "Field Medic")
    page.get_by_role("button", name="Change this card's values…").click()
    page.get_by_role("heading", name="A variant of Field Medic").wait_for()
    kept = page.get_by_role("group", name="Keyword Reinforcement")
    assert "heals 10 damage of its target" in kept.text_content()
    kept.get_by_role("spinbutton", name="Amount").fill("20")
    kept.get_by_role("combobox", name="A part to add").select_option("draw")
    kept.get_by_role("button", name="Add a part").click()
    assert "its controller draws 1 card" in kept.text_content()
    assert kept.get_by_role("button", name="Remove this part").count() == 2
    name = page.get_by_role("textbox", name="Name", exact=True).input_value()
    page.get_by_role("button", name="Use this variant").click()
    yaml_has(page, f"name: {name}")
    varied = _scenario_card(page, name)
    reinforcement = medic["keywords"][0]["reinforcement"]
    edited = dict(reinforcement, do=[{"heal": 20, "to": "target"}, {"draw": 1}])  # the amount; a part more
    assert varied["keywords"] == [{"reinforcement": edited}]
    assert varied["effects"] == medic["effects"]
    _read(varied)
    # "and without its Reinforcement?": removed whole, from the form
    page.get_by_role("button", name="Change this card's values…").click()
    page.get_by_role("heading", name="A variant of Field Medic").wait_for()
    page.get_by_role("button", name="Remove Reinforcement").click()
    name = page.get_by_role("textbox", name="Name", exact=True).input_value()
    assert "no Reinforcement" in name
    page.get_by_role("button", name="Use this variant").click()
    yaml_has(page, f"name: {name}")
    assert _scenario_card(page, name)["keywords"] == []


def _box(locator):
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    return {"top": box["y"] + page_scroll(locator), "bottom": box["y"] + box["height"] + page_scroll(locator)}


def page_scroll(locator):
    return locator.evaluate("() => window.scrollY")


def test_on_a_phone_the_panel_opens_in_the_flow_under_the_row_and_covers_nothing(page, live_server):
    desk(page, live_server, 390, 844)
    words = page.get_by_role("group", name="The board in words: tap a slot")
    rows = words.locator(".player-B .words-rows > li > button.words-slot")
    assert rows.count() >= 2
    first, second = rows.nth(0), rows.nth(1)
    chips = words.locator(".player-B .words-empty > button.words-slot")
    before = _box(second)
    chips_before = _box(chips.first)
    row_words = first.text_content()
    first.click()
    panel = page.get_by_role("heading", name=re.compile(r"^B's .*soul slot"))
    panel.wait_for()
    pop = page.locator("#slot-pop")
    opened = _box(pop)
    row = _box(first)
    assert row["bottom"] <= opened["top"] <= row["bottom"] + 40     # just under the row tapped
    after = _box(second)
    assert after["top"] >= opened["bottom"]                          # the next row moved down, not covered
    assert after["top"] - before["top"] >= opened["bottom"] - opened["top"]
    assert _box(chips.first)["top"] >= opened["bottom"]
    # a tap on the panel's own controls stays in the panel, and the board redraws with it in place
    damage = page.get_by_role("spinbutton", name="Damage", exact=True)
    damage.fill("5")
    damage.press("Tab")
    hp = int(re.search(r"HP (\d+)/", row_words).group(1))
    first.filter(has_text=f"HP {hp - 5}/").wait_for()                # the board in words redrawn...
    assert page.evaluate("() => Boolean(document.querySelector('#slot-pop').closest('.words-rows li'))")
    assert not page.locator("#slot-editor").is_hidden()
    page.get_by_role("button", name="Done").click()
    assert page.locator("#slot-editor").is_hidden()
    assert abs(_box(chips.first)["top"] - chips_before["top"]) < 30      # the rows are back where they were
