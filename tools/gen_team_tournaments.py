#!/usr/bin/env python3
"""Generate varied TRF-2026 team tournaments for the differential tests against FIDE's checker.

Round robins (single and double) and Swiss events, 2 to 6 boards, 4 to 30 teams, with
pairing-allocated byes (320), requested byes (240 F/H/Z), match forfeits (330 +-, -+, --), board
forfeits (an empty board in a 300 line-up, the opponent's player "0000 - +"), withdrawals, and
many ties. Deterministic from the seed. Dev tooling only; not part of the product.

    python3 tools/gen_team_tournaments.py --count 240 --seed 1 --out /tmp/fide-diff
"""

import argparse
import os
import random



def fmt(x):
    """Points as the TRF writes them: 1.0, 12.5."""
    return f"{x:.1f}"


class Event:
    def __init__(self, rng, index):
        self.rng = rng
        self.index = index
        # Match points (record 362): 2-1-0 mostly, sometimes 3-1-0.
        self.mw, self.md = (3, 1) if rng.random() < 0.15 else (2, 1)
        self.round_robin = rng.random() < 0.35
        self.boards = rng.randint(2, 6)
        if self.round_robin:
            self.double = rng.random() < 0.3
            self.nteams = rng.randint(4, 8 if self.double else 12)
        else:
            self.double = False
            self.nteams = rng.randint(4, 30)
        self.gp_primary = rng.random() < 0.15
        # Draw-heavy events and short events tie more.
        self.draw_rate = rng.choice([0.15, 0.3, 0.5, 0.8])
        self.edition_2026 = rng.random() < 0.5
        self.forfeit_rate = rng.choice([0.0, 0.03, 0.08])
        self.board_forfeit_rate = rng.choice([0.0, 0.02, 0.06])
        self.bye_rate = 0.0 if self.round_robin else rng.choice([0.0, 0.03, 0.08])
        self.withdrawals = rng.choice([0, 0, 1, 2])
        self.teams = []  # [(name, [player numbers], strength)]
        pno = 1
        for t in range(self.nteams):
            size = self.boards + rng.choice([0, 0, 1, 2])
            players = list(range(pno, pno + size))
            pno += size
            self.teams.append({"players": players, "strength": rng.random()})
        self.nplayers = pno - 1
        # per player, per round: (opponent, colour, result) or None
        self.games = {p: {} for p in range(1, self.nplayers + 1)}
        self.byes = []  # (type, round, team)
        self.pab = {}  # round -> team
        self.forfeits = []  # (type, round, white, black)
        self.lineups = []  # (round, team, opponent, [players or 0])
        self.mp = [0] * self.nteams
        self.gp = [0.0] * self.nteams
        self.met = [set() for _ in range(self.nteams)]
        self.pab_had = set()
        self.withdrawn_after = {}
        if self.round_robin:
            self.schedule = berger(self.nteams, self.double)
            self.nrounds = len(self.schedule)
        else:
            self.nrounds = rng.randint(3, min(11, max(3, self.nteams - 1)))
        for _ in range(self.withdrawals):
            t = rng.randrange(self.nteams)
            self.withdrawn_after[t] = rng.randint(1, max(1, self.nrounds - 1))
        # A withdrawn team's later rounds: unpaired, or zero-point byes on record (240 Z).
        self.zpb_after_withdrawal = rng.random() < 0.5
        # TRF-16's way (off here; gen_swiss_pairings turns it on): a forfeited board names both
        # players ("  12 w +" / "   5 b -"), a match may be forfeited on every board without a
        # 330 record, and byes and absences are codes in the 001 round blocks (U, F, H, Z).
        self.named_forfeits = False
        self.whole_forfeit_rate = 0.0
        self.codes = {}  # (team, round) -> the bye's letter in its players' round blocks
        # TRF-16 alone: the 001 round blocks say it all, no 240, 320 or 330 record.
        self.codes_only = False
        # A Swiss team that joins late (unpaired in the first rounds).
        self.late = {}
        if not self.round_robin and rng.random() < 0.2:
            self.late[rng.randrange(self.nteams)] = rng.randint(2, max(2, self.nrounds // 2))

    def active(self, t, rnd):
        return self.late.get(t, 1) <= rnd <= self.withdrawn_after.get(t, 10**6)

    def record_absences(self, rnd):
        if self.zpb_after_withdrawal:
            for t, last in self.withdrawn_after.items():
                if rnd > last:
                    self.byes.append(("Z", rnd, t))

    def play(self):
        for rnd in range(1, self.nrounds + 1):
            self.record_absences(rnd)
            if self.round_robin:
                pairs, bye = self.schedule[rnd - 1]
                for h, a in pairs:
                    ha, aa = self.active(h, rnd), self.active(a, rnd)
                    if ha and aa:
                        self.match(rnd, h, a)
                    elif ha or aa:
                        # The withdrawn team's scheduled match: forfeited, or not paired.
                        if self.rng.random() < 0.5:
                            self.match_forfeit(rnd, h, a, "+-" if ha else "-+")
                    # both withdrawn: nothing
                if bye is not None and self.active(bye, rnd) and self.rng.random() < 0.5:
                    self.give_pab(rnd, bye)
            else:
                self.swiss_round(rnd)

    def swiss_round(self, rnd):
        rng = self.rng
        pool = [t for t in range(self.nteams) if self.active(t, rnd)]
        requested = [t for t in pool if rng.random() < self.bye_rate]
        for t in requested:
            kind = rng.choice("FHHZZ")
            self.byes.append((kind, rnd, t))
            if kind == "F":
                self.mp[t] += self.mw
                self.gp[t] += self.boards
            elif kind == "H":
                self.mp[t] += self.md
                self.gp[t] += self.boards / 2
        pool = [t for t in pool if t not in requested]
        pool.sort(key=lambda t: (-self.mp[t], -self.gp[t], t))
        if len(pool) % 2 == 1:
            candidates = [t for t in reversed(pool) if t not in self.pab_had] or list(reversed(pool))
            b = candidates[0]
            pool.remove(b)
            self.give_pab(rnd, b)
        while pool:
            h = pool.pop(0)
            opp = next((t for t in pool if t not in self.met[h]), pool[0])
            pool.remove(opp)
            if rng.random() < 0.5:
                h, opp = opp, h
            if rng.random() < self.forfeit_rate:
                self.match_forfeit(rnd, h, opp, rng.choice(["+-", "-+", "+-", "-+", "--"]))
            else:
                self.match(rnd, h, opp)

    def give_pab(self, rnd, t):
        self.pab[rnd] = t
        self.codes[(t, rnd)] = "U"
        self.pab_had.add(t)
        self.mp[t] += self.pab_mp
        self.gp[t] += self.pab_gp

    def lineup(self, t):
        """A line-up: the roster's first players in roster order, a reserve sometimes in."""
        players = self.teams[t]["players"]
        if len(players) > self.boards and self.rng.random() < 0.4:
            out = self.rng.sample(players, self.boards)
            return sorted(out)
        return players[: self.boards]

    def result(self, h, a):
        rng = self.rng
        d = self.teams[h]["strength"] - self.teams[a]["strength"]
        x = rng.random()
        if x < self.draw_rate:
            return "="
        return "1" if rng.random() < 0.5 + d * 0.4 else "0"

    def match(self, rnd, h, a):
        rng = self.rng
        self.met[h].add(a)
        self.met[a].add(h)
        hl, al = self.lineup(h), self.lineup(a)
        hlist, alist = list(hl), list(al)
        hp = ap = 0.0
        empty_h, empty_a = False, False
        anchor = rng.randrange(self.boards)
        # A match forfeited board by board, both teams named on every board (TRF-16's layout).
        whole = self.named_forfeits and rng.random() < self.whole_forfeit_rate
        # m: each board its own (a match forfeited on every board that both teams scored in).
        whole_who = rng.choice("hhaaxm") if whole else None
        for b in range(self.boards):
            hc = "w" if b % 2 == 0 else "b"
            ac = "b" if hc == "w" else "w"
            x = rng.random()
            # FIDE's checker needs one game played over the board to see the match (a match of
            # empty boards only is a 330 forfeit instead), unless the boards name the players.
            if whole or (x < self.board_forfeit_rate and b != anchor):
                # One team leaves the board empty (GT-M9): the other player wins by forfeit.
                if whole_who == "m":
                    who = rng.choice("hax")
                else:
                    who = whole_who or rng.choice("ha" if rng.random() < 0.9 else "x")
                if self.named_forfeits:
                    # Both players on the board; who did not come loses by forfeit.
                    hr, ar = {"h": ("-", "+"), "a": ("+", "-"), "x": ("-", "-")}[who]
                    self.games[hl[b]][rnd] = (al[b], hc, hr)
                    self.games[al[b]][rnd] = (hl[b], ac, ar)
                    hp += hr == "+"
                    ap += ar == "+"
                    continue
                if who == "h":
                    hlist[b] = 0
                    empty_h = True
                    self.games[al[b]][rnd] = (0, "-", "+")
                    ap += 1
                elif who == "a":
                    alist[b] = 0
                    empty_a = True
                    self.games[hl[b]][rnd] = (0, "-", "+")
                    hp += 1
                else:
                    hlist[b] = 0
                    alist[b] = 0
                    empty_h = empty_a = True
                continue
            r = self.result(h, a)
            rev = {"1": "0", "0": "1", "=": "="}[r]
            self.games[hl[b]][rnd] = (al[b], hc, r)
            self.games[al[b]][rnd] = (hl[b], ac, rev)
            hp += {"1": 1, "=": 0.5, "0": 0}[r]
            ap += {"1": 0, "=": 0.5, "0": 1}[r]
        if empty_h:
            self.lineups.append((rnd, h, a, hlist))
        if empty_a:
            self.lineups.append((rnd, a, h, alist))
        self.gp[h] += hp
        self.gp[a] += ap
        if hp > ap:
            self.mp[h] += self.mw
        elif ap > hp:
            self.mp[a] += self.mw
        elif hp > 0 and ap > 0:
            self.mp[h] += self.md
            self.mp[a] += self.md

    def match_forfeit(self, rnd, h, a, kind):
        self.met[h].add(a)
        self.met[a].add(h)
        self.forfeits.append((kind, rnd, h, a))
        if self.named_forfeits and self.rng.random() < 0.5:
            # Both line-ups on the boards with the forfeit codes (and the 330 record unless
            # codes_only); otherwise the winners' "0000 - +" alone (and the 330 record).
            hl, al = self.lineup(h), self.lineup(a)
            for b in range(self.boards):
                hc = "w" if b % 2 == 0 else "b"
                ac = "b" if hc == "w" else "w"
                self.games[hl[b]][rnd] = (al[b], hc, kind[0])
                self.games[al[b]][rnd] = (hl[b], ac, kind[1])
        else:
            for t, won in ((h, kind[0] == "+"), (a, kind[1] == "+")):
                if won:
                    for p in self.teams[t]["players"][: self.boards]:
                        self.games[p][rnd] = (0, "-", "+")
        for t, won in ((h, kind[0] == "+"), (a, kind[1] == "+")):
            if won:
                self.mp[t] += self.mw
                self.gp[t] += self.boards

    def write(self, path):
        rng = self.rng
        lines = []
        lines.append(f"012 Generated team event {self.index}")
        lines.append("022 Nowhere")
        lines.append("032 FID")
        if rng.random() < 0.95:
            year = 2026 if self.edition_2026 else rng.choice([2024, 2025])
            month = rng.randint(3, 12) if year == 2026 else rng.randint(1, 12)
            if year == 2024:
                month = rng.randint(8, 12)
            lines.append(f"042 {year}/{month:02d}/01")
            lines.append(f"052 {year}/{month:02d}/20")
        lines.append(f"062 {self.nplayers}")
        lines.append(f"072 {self.nplayers}")
        lines.append(f"082 {self.nteams}")
        if rng.random() < 0.85:
            lines.append("092 " + ("Team Round Robin" if self.round_robin else "Team Swiss"))
        lines.append("102 The Chief Arbiter")
        lines.append(f"142 {self.nrounds}")
        lines.append("152 W")
        lines.append("162  W 1.0    D 0.5    L 0.0")
        if self.round_robin:
            code = "FIDE_TEAM_ROUNDROBIN" if not self.double else "FIDE_TEAM_DOUBLEROUNDROBIN"
        else:
            code = "FIDE_TEAM_TYPEA_GP_MP" if self.gp_primary else "FIDE_TEAM_BAKU"
        lines.append("192 " + code)
        lines.append("352 " + ("WB" * self.boards)[: self.boards])
        lines.append(f"362 TW{fmt(self.mw):>4}   TD{fmt(self.md):>4}   TL{fmt(0):>4}")
        for t, team in enumerate(self.teams):
            for p in team["players"]:
                pts = 0.0
                blocks = []
                for rnd in range(1, self.nrounds + 1):
                    g = self.games[p].get(rnd)
                    on_board = p in team["players"][: self.boards]
                    if g is None and self.named_forfeits and on_board:
                        absent = None if self.active(t, rnd) else "Z"
                        g = (0, "-", self.codes.get((t, rnd), absent or "-"))
                    if g is None:
                        blocks.append("0000 - -")
                        continue
                    opp, col, res = g
                    pts += {"1": 1, "=": 0.5, "0": 0, "+": 1, "-": 0, "U": 1, "F": 1, "H": 0.5, "Z": 0}[res]
                    blocks.append(f"{opp:4d} {col} {res}" if opp else f"0000 - {res}")
                name = f"Player{p:04d}, Test"
                rating = 2600 - p * 3 if 2600 - p * 3 > 1000 else 1000
                head = (
                    f"001 {p:4d} m    {name:<33} {rating:4d} FID {10000000 + p:11d} 2000/01/01 "
                    f"{pts:4.1f} {p:4d}  "
                )
                lines.append(head + "  ".join(blocks))
        for t, team in enumerate(self.teams):
            name = f"Team {t + 1:02d}"
            members = "".join(f" {p:4d}" for p in team["players"])
            lines.append(
                f"310 {t + 1:3d} {name:<32} T{t + 1:<4d} {2000:6d} {fmt(self.mp[t]):>6} "
                f"{fmt(self.gp[t]):>6} {t + 1:3d} {members}"
            )
        # One record per bye type and round, naming every team (TRF-2026).
        byes = {}
        for kind, rnd, t in self.byes:
            byes.setdefault((rnd, kind), []).append(t)
        pab, forfeits = self.pab, self.forfeits
        if self.codes_only:
            byes, pab, forfeits = {}, {}, []
        for (rnd, kind), teams in sorted(byes.items()):
            ids = " ".join(f"{t + 1:4d}" for t in sorted(teams))
            lines.append(f"240 {kind} {rnd:3d} {ids}")
        if pab:
            slots = "".join(f"{pab.get(r, -1) + 1:3d} " for r in range(1, self.nrounds + 1))
            lines.append(f"320 {fmt(self.pab_mp):>4} {fmt(self.pab_gp):>4} " + slots.replace("  0 ", "    "))
        for kind, rnd, h, a in forfeits:
            lines.append(f"330 {kind} {rnd:3d} {h + 1:3d} {a + 1:3d}")
        for rnd, t, o, players in self.lineups:
            ids = " ".join(f"{p:4d}" for p in players)
            lines.append(f"300 {rnd:3d} {t + 1:3d} {o + 1:3d} {ids}")
        with open(path, "w", newline="") as f:
            f.write("\r\n".join(lines) + "\r\n")


def berger(n, double):
    """Round-robin rounds as ([(home, away)], bye) with the circle method."""
    teams = list(range(n))
    if n % 2:
        teams.append(None)
    m = len(teams)
    rounds = []
    for r in range(m - 1):
        pairs, bye = [], None
        for i in range(m // 2):
            a, b = teams[i], teams[m - 1 - i]
            if r % 2 and i == 0:
                a, b = b, a
            if a is None:
                bye = b
            elif b is None:
                bye = a
            else:
                pairs.append((a, b))
        rounds.append((pairs, bye))
        teams = [teams[0]] + [teams[-1]] + teams[1:-1]
    if double:
        rounds += [([(b, a) for a, b in p], bye) for p, bye in rounds]
    return rounds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=240)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for i in range(args.count):
        rng = random.Random(args.seed * 100003 + i)
        ev = Event(rng, i)
        ev.pab_mp = rng.choice([ev.md, ev.md, ev.mw])
        ev.pab_gp = ev.boards / 2 if ev.pab_mp == ev.md else ev.boards
        ev.play()
        ev.write(os.path.join(args.out, f"gen-{args.seed:03d}-{i:04d}.trf"))


if __name__ == "__main__":
    main()
