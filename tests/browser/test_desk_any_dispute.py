"""The desk for any dispute (issue 30), in a real Chromium at 1280×800 and 390×844, read by visible text
and roles: the answer names the action asked about and the preselected question counts as asked; an
action that is not legal is queued from what the desk offers and ruled; the custom-card form offers
what each type can have and nothing else, and writes only cards that load; whose turn it is is said in
words and sets the spirals with it; a ruling reads at 12 px or more and fits a phone, verdict first;
the Ambush list stays true after a fix."""

from __future__ import annotations

import pytest
from desk_page import open_desk, settled

from judge.desk import words

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def desk(page, live_server, size="desktop"):
    open_desk(page, live_server, *SIZES[size])


def start(page, key):
    page.locator(f".start-button[data-start={key}]").click()
    settled(page)


def scenario(page):
    return page.evaluate("JSON.parse(JSON.stringify(window.codexDesk.scenario))")


def resolve(page):
    page.get_by_role("button", name="Resolve", exact=True).click()
    page.wait_for_selector(".desk.stepping #ruling-out .step")


# -- 1. the words around the verdict -------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_the_answer_names_the_action_asked_and_the_preselected_question_is_asked(page, live_server, size):
    desk(page, live_server, size)
    start(page, "attack")
    offers = page.locator("#next-actions .next-action")
    first = offers.filter(has_text="A's Noah (C3) attacks B's Harold (C3)").first
    first.click()
    page.locator("#queue li").first.wait_for()
    settled(page)
    page.locator("#next-actions .next-action", has_text="A's Grey Knight (L2) attacks").first.click()
    page.locator("#queue li").nth(1).wait_for()
    said = words.queue_words(scenario(page))
    # ask about the second action, by the question's radio
    page.locator("#ask-list li label", has_text="Is action 1 (").first.wait_for()
    page.locator("#ask-list li label", has_text="Is action 1 (").first.click()
    resolve(page)
    question = page.locator("#ruling-out .answer-question").first.text_content()
    assert f"action 2, “{said[1]}”" in question and said[0] not in question
    # a fresh queue left with its preselected "(the likeliest)" question: that question was asked
    start(page, "attack")
    page.locator("#next-actions .next-action", has_text="A's Noah (C3) attacks B's Harold (C3)").first.click()
    page.locator("#queue li").first.wait_for()
    page.locator("#ask-list li", has_text="(the likeliest)").wait_for()
    resolve(page)
    assert "Nothing was asked" not in page.locator("#ruling-out .answers").text_content()
    assert page.problems == []


# -- 2. an illegal action, queued from what is offered --------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_an_attack_into_a_taunts_radius_is_offered_as_not_legal_queued_and_ruled(page, live_server, size):
    desk(page, live_server, size)
    start(page, "attack")
    page.evaluate("""() => { const d = window.codexDesk; d.state.players.B.field.L2 = "Iron Sentinel";
                             d.changed(); }""")
    settled(page)
    into_radius = "A's Grey Knight (L2) attacks B's Harold (C3)"     # Harold stands under the Taunt Soul
    assert not page.locator("#next-actions .next-action", has_text=into_radius).count()
    page.get_by_role("button", name="Show the actions not legal here, and why").click()
    refused = page.locator("#next-actions .next-action.refused", has_text=into_radius)
    refused.first.wait_for()
    assert "not legal now:" in refused.first.text_content() and "Taunt" in refused.first.text_content()
    refused.first.click()
    page.locator("#queue li", has_text="Harold").first.wait_for()
    resolve(page)
    verdict = page.locator("#ruling-out .answer .verdict").first.text_content()
    assert verdict.startswith("No")
    assert "Taunt" in page.locator("#ruling-out .answer-text").first.text_content()


# -- 3. the card form covers the contract -----------------------------------------------------------
BUILD_EVERY_CARD = """() => {
  const d = window.codexDesk, form = document.querySelector("#custom-form"), f = form.elements;
  const fire = (el) => el.dispatchEvent(new Event("change", { bubbles: true }));
  const offered = (select) => [...select.options].filter((o) => !o.disabled).map((o) => o.value);
  const cards = [];
  for (const type of [...f.type.options].map((o) => o.value)) {
    d.openCustom(type);
    f.has_effect.checked = true; fire(f.has_effect);
    for (const kind of offered(f.e_kind)) {
      f.e_kind.value = kind; fire(f.e_kind);
      for (const part of offered(f.e_do)) {
        f.e_do.value = part; fire(f.e_do);
        const grants = part === "grant" ? offered(f.e_do_kw) : [null];
        for (const keyword of grants) {
          if (keyword) { f.e_do_kw.value = keyword; fire(f.e_do_kw); }
          const acting = !form.querySelector("label[data-takes~=ref]").hidden;
          for (const to of (acting ? offered(f.e_do_to) : [null])) {
            if (to) { f.e_do_to.value = to; fire(f.e_do_to); }
            if (to === "target") { f.e_target.value = f.e_target.options[1].value; fire(f.e_target); }
            const card = d.formCard();
            card.name = `Form ${type} ${kind} ${part} ${keyword || ""} ${to || ""}`.trim();
            cards.push(card);
          }
        }
      }
    }
    d.closeCustom();
  }
  return cards;
}"""


def test_every_card_the_form_can_write_loads_and_each_type_gets_only_what_it_can_have(page, live_server):
    desk(page, live_server)
    cards = page.evaluate(BUILD_EVERY_CARD)
    kinds = {(c["type"], e["kind"]) for c in cards for e in c["effects"]}
    assert {("ambush", "timing"), ("ambush", "activated"), ("soul", "static"), ("soul", "instant"),
            ("event", "activated"), ("realm", "static"), ("armament", "activated")} <= kinds
    grants = {repr(e.get("grant")) for c in cards for e in c["effects"]}
    assert any("reinforcement" in g for g in grants) and any("defiance" in g for g in grants)
    statics = [e for c in cards for e in c["effects"] if e["kind"] == "static"]
    assert statics and not any("until" in e or "do" in e for e in statics)
    assert not [c["name"] for c in cards if c["type"] == "event" and "ambusher" in repr(c["effects"])]
    # every one of them loads: the engine reads the scenario with all of them and names no problem
    position = scenario(page)
    for at in range(0, len(cards), 30):   # in batches, each well within one upload's size
        mapping = dict(position, cards=cards[at:at + 30])
        answer = page.request.post(f"{live_server}/desk/parse.json", data={"scenario": mapping})
        assert answer.ok and answer.json()["problems"] == [], answer.json()
    assert len(cards) > 100


def custom_ambush(page):
    """The custom-card form for an Ambush set under B's Harold."""
    page.locator('#board g[data-ref="B:C3"]').click()
    page.get_by_role("button", name="Set an Ambush here…").click()
    page.get_by_role("button", name="Make a custom card…").click()


def test_the_ambush_form_offers_its_triggers_and_its_heading_follows_the_type(page, live_server):
    desk(page, live_server)
    custom_ambush(page)
    form = page.locator("#custom-form")
    assert page.get_by_role("heading", name="A custom Ambush").is_visible()
    form.get_by_label("Kind").select_option("timing")
    when = form.get_by_label("When")
    assert when.is_visible()
    offered = [o.text_content() for o in when.locator("option").all() if o.is_enabled()]
    assert "when the Ambusher is targeted by an opposing effect" in offered
    assert "when it is recruited" not in offered
    form.get_by_label("Type").select_option("soul")
    assert page.get_by_role("heading", name="A custom Soul").is_visible()
    form.get_by_label("Kind").select_option("static")
    assert not form.get_by_label("Until").is_visible()
    assert not form.get_by_label("When").is_visible() and not form.get_by_label("It targets").is_visible()
    assert page.problems == []


# -- 4. turns in words -------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_one_control_says_whose_turn_and_sets_the_turn_and_both_spirals(page, live_server, size):
    desk(page, live_server, size)
    control = page.get_by_label("Whose turn, counted from the first turn")
    control.select_option(label="A's 2nd turn (turn 4)")
    page.wait_for_function("() => window.codexDesk.state.turn === 4")
    state = scenario(page)["state"]
    assert state["turn_player"] == "A" and state["players"]["A"]["turns_taken"] == 2
    assert state["players"]["B"]["turns_taken"] == 2           # B took turns 1 and 3
    why = page.locator("#spiral-why").text_content()
    assert "A (2 turns taken)" in why and "rank-1 slot" in why
    control.select_option(label="B's 1st turn (turn 1)")
    page.wait_for_function("() => window.codexDesk.state.turn === 1")
    state = scenario(page)["state"]
    assert state["turn_player"] == "B" and state["players"]["A"]["turns_taken"] == 0
    assert "A (0 turns taken): none yet" in page.locator("#spiral-why").text_content()


# -- 5. a phone-sized ruling -------------------------------------------------------------------------
SMALL_TEXT = """() => { const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, e = node.parentElement;
    if (!node.textContent.trim() || !e.closest('#ruling-out, .ruling-page, #board')) continue;
    const box = e.getBoundingClientRect(), style = getComputedStyle(e);
    if (!box.width || !box.height || style.visibility === 'hidden') continue;
    let size = parseFloat(style.fontSize);
    if (e.closest('svg')) { const m = e.getScreenCTM(); if (m) size *= Math.hypot(m.a, m.b); }
    if (size < 11.95) out.push(`${size.toFixed(1)} px: ${node.textContent.trim().slice(0, 30)}`);
  }
  return out; }"""


@pytest.mark.parametrize("size", SIZES)
def test_a_ruling_reads_at_12_px_fits_the_width_and_opens_at_its_verdict(page, live_server, size):
    desk(page, live_server, size)
    start(page, "attack")
    page.locator("#next-actions .next-action", has_text="A's Noah (C3) attacks B's Harold (C3)").first.click()
    page.locator("#queue li").first.wait_for()
    resolve(page)
    page.wait_for_timeout(300)   # the scroll to the answer
    verdict = page.locator("#ruling-out .answer .verdict").first.bounding_box()
    assert verdict["y"] >= 0 and verdict["y"] + verdict["height"] <= SIZES[size][1] / 2, verdict
    assert page.evaluate(SMALL_TEXT) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0]
    # the same ruling shared: its page too
    page.goto(f"{live_server}/scenarios/10-card-types/ambush-fizzles-when-ambusher-returned")
    assert page.evaluate(SMALL_TEXT) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0]
    assert page.get_by_role("region", name="The answer").is_visible()


# -- 8. the Ambush list after a fix ------------------------------------------------------------------
def test_keeping_only_the_last_ambush_updates_the_open_list_and_its_remove(page, live_server):
    desk(page, live_server)
    page.evaluate("""() => { const d = window.codexDesk;
        d.state.players.B.field.C3 = {card: "Harold",
                                      ambushes: [{card: "Hidden Snare"}, {card: "Shadow Trap"}]};
        d.changed(); }""")
    page.locator('#board g[data-ref="B:C3"]').click()
    ambushes = page.locator("#ambush-list li")
    ambushes.nth(1).wait_for()
    page.get_by_role("button", name="Keep only the last Ambush set").click()
    page.wait_for_function("() => document.querySelectorAll('#ambush-list li').length === 1")
    assert "Shadow Trap" in ambushes.first.text_content()
    page.get_by_role("button", name="Remove Shadow Trap").click()
    page.wait_for_function("() => !window.codexDesk.state.players.B.field.C3.ambushes")
    assert ambushes.count() == 0


# -- issue 28 at the desk: cards typed as their text ---------------------------------------------------
def ruled(page, live_server):
    """The desk's scenario resolved by the engine, as its ruling JSON."""
    answer = page.request.post(f"{live_server}/desk/resolve.json", data={"scenario": scenario(page)})
    assert answer.ok, answer.text()
    return answer.json()["ruling"]


def test_an_ambush_with_a_moment_trigger_typed_as_its_text_reads_at_once_and_is_ruled(page, live_server):
    """Issue 28's first dispute, posed by typing the Ambush's text (no YAML, no form fields): A casts
    Firebolt with Grey Knight at B's Harold, B springs "When the Ambusher is targeted by an Effect: return
    the Caster to its owner's hand." in answer. The Ambush, last on the Cascade, resolves first and
    returns Grey Knight (interpretation/answered-caster: the Caster of the Event it answers); Firebolt
    then fizzles, its Caster being no longer active (10.2.5, 11.6.1), so Harold takes no damage."""
    desk(page, live_server)
    custom_ambush(page)
    text = page.get_by_label("Card text, as printed")
    reading = page.locator("#card-text-reading")
    text.fill("When the Ambusher is targeted by an Effect: return the Caster to its owner's hand.")
    reading.get_by_text("Reads as:").wait_for()
    assert "When the Ambusher is targeted" in reading.text_content()
    # "the Caster" of an Ambush is the Caster of the Event it answers, so nothing is flagged
    assert "names nothing" not in reading.text_content() and not reading.locator(".problems").count()
    # read into the parts to change: the moment named (an opposing Effect, 10.4.6) and what it does
    parts = page.locator("#effects-kept")
    assert "when the Ambusher is targeted by an opposing effect" in parts.text_content()
    page.get_by_role("button", name="Add the card").click()
    page.locator("#ambush-list li", has_text="My Ambush").wait_for()
    page.get_by_role("button", name="Done").click()
    settled(page)
    page.locator("#next-actions .next-action",
                 has_text="A casts Firebolt with Grey Knight (L2) at B's Harold (C3)").first.click()
    page.locator("#next-actions:not([aria-busy]) .next-action", has_text="B springs My Ambush").first.click()
    page.locator("#queue li").nth(1).wait_for()
    resolve(page)
    ruling = ruled(page, live_server)
    a, b = ruling["final"]["players"]["A"], ruling["final"]["players"]["B"]
    assert "Grey Knight" in a["hand"]                              # the Caster went back to its hand
    assert "L2" not in a["field"] or not a["field"]["L2"]
    assert not b["field"]["C3"].get("damage")                      # Firebolt fizzled: no damage
    assert any("10.2.5" in s["rules"] for s in ruling["steps"])
    assert page.problems == []


def test_a_card_text_that_cant_be_read_says_so_inline_and_an_aura_granting_reinforcement_is_posed(
        page, live_server):
    desk(page, live_server)
    page.evaluate("""() => { const d = window.codexDesk;
                             d.state.players.A.field.C3 = {card: "Noah", damage: 20};
                             d.state.players.A.hand = ["Scavenger"]; d.changed(); }""")
    settled(page)
    page.locator('#board g[data-ref="A:L1"]').click()
    page.get_by_role("button", name="Make a custom card…").click()
    form = page.locator("#custom-form")
    text = form.get_by_label("Card text, as printed")
    text.fill("Your other Souls gain Reinforcement: Heal 10 damage flibber.")
    problem = page.locator("#card-text-reading .problems")
    problem.wait_for()
    assert "Can't read it yet" in problem.text_content() and "flibber" in problem.text_content()
    # issue 28's second dispute, typed as its text only: the aura granting Reinforcement reads at once
    text.fill("Your other Souls gain Reinforcement: Heal 10 damage from one of your Souls.")
    reading = page.locator("#card-text-reading")
    reading.get_by_text("Reads as:").wait_for()
    assert "Reinforcement" in reading.text_content() and not reading.locator(".problems").count()
    assert not form.locator("input[name=has_effect]").is_checked()      # nothing typed in the fields
    page.get_by_role("button", name="Add the card").click()
    page.locator('#board g[data-ref="A:L1"]', has_text="My Soul").wait_for()
    page.get_by_role("button", name="Done").click()
    settled(page)
    page.locator("#next-actions .next-action", has_text="A recruits Scavenger to L1·0").first.click()
    use = page.locator("#next-actions:not([aria-busy]) .next-action", has_text="Reinforcement")
    use.filter(has_text="Noah").first.click()
    page.locator("#queue li").nth(1).wait_for()
    resolve(page)
    # Scavenger, recruited, has the Reinforcement granted to it (13.2.1), which triggers on recruiting
    # (10.1.2, glossary Reinforcement) and heals 10 of Noah's 20 damage (14.2.1)
    ruling = ruled(page, live_server)
    assert ruling["final"]["players"]["A"]["field"]["C3"].get("damage", 0) == 10   # healed 10 of 20
    assert any("glossary/reinforcement" in s["rules"] for s in ruling["steps"])
    assert page.problems == []
