#!/usr/bin/env python3
"""Generate team Swiss tournaments paired round by round by FIDE's reference checker (gacrux,
C.04.6), for the differential test of Arbiter's pairing (crates/arbiter-formats/tests/swiss_gacrux.rs).

Each event: 7 to 60 teams, 5 to 11 rounds, 2 to 6 boards, type A, type B or no colour
preferences, match or game points first, an initial-colour written (152) or read from round 1,
sometimes prohibited pairings (260). Before each round some teams sit out: late entries,
withdrawals, requested byes (240 F/H/Z); the checker pairs the others (`pairingchecker -p -u`),
and the round is played with match forfeits (330), board forfeits and pairing-allocated byes
(320). Every round of every file written is therefore the checker's pairing. Half the events
are written in TRF-16's layout (issue 31): forfeited boards between named players, matches
forfeited board by board, byes as U/F/H/Z letters in the 001 round blocks, and half of those with
no 240, 320 or 330 record. `--stress` raises every rate of forfeits and byes. Deterministic from
the seed. Run with the Python that has gacrux:

    python3 -m venv /tmp/gacrux-venv && /tmp/gacrux-venv/bin/pip install gacrux
    /tmp/gacrux-venv/bin/python tools/gen_swiss_pairings.py --count 100 --seed 1 --out /tmp/swiss
"""

import argparse
import contextlib
import io
import json
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_team_tournaments import Event, fmt  # noqa: E402


class SwissEvent(Event):
    def __init__(self, rng, index):
        super().__init__(rng, index)
        self.round_robin = False
        self.nteams = rng.randint(7, 60)
        self.boards = rng.choice([2, 4, 4, 4, 6])
        pno = 1
        self.teams = []
        for _ in range(self.nteams):
            size = self.boards + rng.choice([0, 0, 1, 2])
            self.teams.append({"players": list(range(pno, pno + size)), "strength": rng.random()})
            pno += size
        self.nplayers = pno - 1
        self.games = {p: {} for p in range(1, self.nplayers + 1)}
        self.mp = [0] * self.nteams
        self.gp = [0.0] * self.nteams
        self.met = [set() for _ in range(self.nteams)]
        self.total = rng.randint(5, min(11, self.nteams - 2))
        self.nrounds = self.total
        self.withdrawn_after = {}
        for _ in range(rng.choice([0, 0, 1, 2])):
            self.withdrawn_after[rng.randrange(self.nteams)] = rng.randint(1, self.total - 1)
        self.late = {}
        if rng.random() < 0.3:
            self.late[rng.randrange(self.nteams)] = rng.randint(2, max(2, self.total // 2))
        self.code = rng.choice(
            ["FIDE_TEAM_TYPEA_MP_GP"] * 5
            + ["FIDE_TEAM_TYPEB_MP_GP"] * 3
            + ["FIDE_TEAM_MP_GP", "FIDE_TEAM_TYPEA_GP_MP", "FIDE_TEAM_TYPEA_MP", "FIDE_TEAM_TYPEB_GP"]
        )
        self.top = rng.choice(["W", "B", None])
        self.prohibited = []
        if rng.random() < 0.25:
            group = rng.sample(range(self.nteams), rng.randint(2, 3))
            first = rng.randint(1, self.total)
            self.prohibited.append((first, rng.randint(first, self.total), group))
        # Half the events in TRF-16's layout (see Event.named_forfeits), with more forfeits.
        self.named_forfeits = rng.random() < 0.5
        if self.named_forfeits:
            self.whole_forfeit_rate = rng.choice([0.0, 0.03, 0.08])
            self.board_forfeit_rate = rng.choice([0.02, 0.06, 0.12])
            self.forfeit_rate = rng.choice([0.03, 0.08])
            self.codes_only = rng.random() < 0.5

    def swiss_round(self, rnd):
        rng = self.rng
        pool = [t for t in range(self.nteams) if self.active(t, rnd)]
        requested = [t for t in pool if rng.random() < self.bye_rate]
        for t in requested:
            kind = rng.choice("FHHZZ")
            self.byes.append((kind, rnd, t))
            self.codes[(t, rnd)] = kind
            if kind == "F":
                self.mp[t] += self.mw
                self.gp[t] += self.boards
            elif kind == "H":
                self.mp[t] += self.md
                self.gp[t] += self.boards / 2
        absent = [t for t in range(self.nteams) if t not in pool or t in requested]
        pairs = self.checker_pairs(rnd, absent)
        for w, b in pairs:
            if b < 0:
                self.give_pab(rnd, w)
            elif rng.random() < self.forfeit_rate:
                self.match_forfeit(rnd, w, b, rng.choice(["+-", "-+", "+-", "-+", "--"]))
            else:
                self.match(rnd, w, b)

    def checker_pairs(self, rnd, absent):
        """The checker's pairing of `rnd` from the rounds written so far (0-based teams)."""
        from gacrux.pairingchecker import pairingchecker

        with tempfile.TemporaryDirectory() as d:
            src, out = os.path.join(d, "in.trf"), os.path.join(d, "out.json")
            self.nrounds = rnd - 1
            self.write(src)
            self.nrounds = self.total
            argv = ["pairingchecker", "-i", src, "-o", out, "-p", "-n", str(rnd)]
            if self.top is None and rnd == 1:
                argv += ["-t", self.rng.choice("wb")]
            if absent:
                argv += ["-u"] + [str(t + 1) for t in absent]
            sys.argv = argv
            with contextlib.redirect_stdout(io.StringIO()):
                pairingchecker().common_main()
            with open(out) as f:
                result = json.load(f)
        pairs = result["pairingResult"]["pairs"]
        if not pairs:
            raise RuntimeError(f"event {self.index} round {rnd}: no pairing: {result['status']}")
        return [(w - 1, b - 1) for w, b in pairs]

    def write(self, path):
        super().write(path)
        with open(path, newline="") as f:
            lines = f.read().split("\r\n")
        fixed = []
        for line in lines:
            if line.startswith("142 "):
                line = f"142 {self.total}"
            elif line.startswith("152 "):
                if self.top is None:
                    continue
                line = "152 " + self.top
            elif line.startswith("192 "):
                line = "192 " + self.code
            fixed.append(line)
        for first, last, group in self.prohibited:
            fixed.insert(-1, f"260 {first:3d} {last:3d} " + " ".join(f"{t + 1:4d}" for t in group))
        with open(path, "w", newline="") as f:
            f.write("\r\n".join(fixed))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--stress", action="store_true", help="many more forfeits and byes")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for i in range(args.count):
        rng = random.Random(args.seed * 100019 + i)
        ev = SwissEvent(rng, i)
        if args.stress:
            ev.board_forfeit_rate, ev.forfeit_rate, ev.bye_rate = 0.25, 0.15, 0.1
            ev.whole_forfeit_rate = 0.15 if ev.named_forfeits else 0.0
        ev.pab_mp = rng.choice([ev.md, ev.md, ev.mw])
        ev.pab_gp = ev.boards / 2 if ev.pab_mp == ev.md else ev.boards
        try:
            ev.play()
        except RuntimeError as e:
            # C.04.6 art. 3.3.3: no legal pairing; the Chief Arbiter would decide. Not a case.
            print(f"skipped: {e}", flush=True)
            continue
        ev.write(os.path.join(args.out, f"swiss-{args.seed:03d}-{i:04d}.trf"))
        print(f"swiss-{args.seed:03d}-{i:04d}.trf: {ev.nteams} teams, {ev.total} rounds", flush=True)


if __name__ == "__main__":
    main()
