"""How a duel ends (python-chess's `Outcome`/`Termination`): one `Ending` record per way a duel can
end, and the `Outcome` the state holds once it has (`State.outcome`; `State.winner` reads it).

    Outcome.of("leader captured", "A")        # Outcome(winner="A", reason="leader captured", rules=(…))
    ENDINGS["decked out"].says                 # the win step's sentence, with {winner}, {loser}, …

Everything that speaks of the end reads the outcome: the win step (`Game.end_duel`), the refusal of
an action after it (`refusal`), the window it closes, the ruling's `winner`.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.engine.data.errors import Violation

R_OVER = ("interpretation/duel-over",)   # our reading: nothing more is played once the duel is won


@dataclass(frozen=True)
class Ending:
    """One way a duel ends: its name, the rules that end it so, the sentence of its win step (a format
    string over `winner`, `loser`, `leader` and `turns`) and how the winner won, said after it."""

    name: str
    rules: tuple[str, ...]
    says: str
    how: str = ""


ENDINGS: dict[str, Ending] = {e.name: e for e in (
    # glossary/leader: capturing the opposing Leader wins
    Ending("leader captured", ("glossary/leader", "glossary/capture"),
           "{loser}'s Leader {leader} is captured: {winner} wins the duel.",
           "by capturing the opposing Leader"),
    # glossary/turn-player: both Leaders captured at once, the turn player wins
    Ending("both leaders captured", ("glossary/turn-player", "glossary/leader", "glossary/capture"),
           "Both Leaders are captured at once: the turn player, {winner}, wins the duel.",
           "as the turn player when both Leaders were captured at once"),
    # glossary/decked-out: Decked Out for the edition's number of turns, a player loses
    Ending("decked out", ("glossary/decked-out",),
           "{loser} has been Decked Out for {turns} of their turns and loses at the end of this one: "
           "{winner} wins the duel.", "as the other player was Decked Out"),
    # the scenario's state says the duel is already won (contract §2 `winner:`), not how
    Ending("stated", R_OVER, "{winner} has won the duel."),
)}


@dataclass(frozen=True)
class Outcome:
    """The end of a duel: who won, why (a key of ENDINGS) and the rules that say so."""

    winner: str
    reason: str
    rules: tuple[str, ...]

    @classmethod
    def of(cls, reason: str, winner: str) -> Outcome:
        return cls(winner, reason, ENDINGS[reason].rules)

    def says(self, **words: object) -> str:
        """The win step's sentence."""
        return ENDINGS[self.reason].says.format(winner=self.winner, **words)

    def refusal(self, then: str = "") -> Violation:
        """Why nothing more is legal: the duel is over, how it ended, and `then` ("so nothing more is
        played")."""
        how = ENDINGS[self.reason].how
        return Violation(f"the duel is over: {self.winner} has won{' ' + how if how else ''}{then}",
                         tuple(dict.fromkeys((*R_OVER, *self.rules))))
