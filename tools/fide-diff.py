#!/usr/bin/env python3
"""Differential test of Arbiter's FIDE tie-breaks against FIDE's reference checker (gacrux).

For every TRF file and every tie-break list, the checker's ranking and values (as
`tiebreakchecker.py -i FILE -r -dT -t LIST` prints them) are compared with Arbiter's
(`crates/arbiter-formats/examples/fide_rank.rs`: the product's TRF importer and standings). Every
rank and every value must agree, values to 2 decimals. Run it with the Python that has gacrux:

    python3 -m venv /tmp/gacrux-venv && /tmp/gacrux-venv/bin/pip install gacrux
    cargo build --release -p arbiter-formats --example fide_rank
    python3 tools/gen_team_tournaments.py --count 240 --seed 1 --out /tmp/fide-diff
    /tmp/gacrux-venv/bin/python tools/fide-diff.py /tmp/fide-diff --save /tmp/fide-diff-failed

`--save DIR` copies each file that disagrees, with the checker's answers (`NAME.expected.tsv`:
one block per list, as the checker prints it), into DIR: the form of the regression cases in
crates/arbiter-formats/tests/data/fide-diff/. `--expected FILE...` only writes those answers.
Dev tooling: gacrux is never a dependency of the product.
"""

import argparse
import contextlib
import copy
import io
import json
import os
import shutil
import subprocess
import sys

# Every criterion and modifier the product accepts, each group tie-break right after PTS in at
# least one list (it sees the biggest tied groups there).
LISTS = [
    "PTS,EDET/P,EMGSB/C1/P,BH:MP/C1/P,MPvGP,EMMSB,EGGSB,BH:GP,BC,SSSC",
    "PTS,DE,EDE,EGMSB/M1,BH/C2,BH:GP/M1/P,TBR,BBE,WIN",
    "PTS,EDEB/P,EDEBT,SSSC/P,EMGSB,BC,TBR",
    "PTS,EDEBB/P,BH:MP/P,EGGSB/C1,WIN:GP,BBE,DE:GP/P",
    "PTS,MPvGP,DE/P,EDET,EMMSB/C1,EGMSB/P,BH:GP/C1,SSSC:GP,WIN",
    "PTS,EDEBT,EDE:GP,BBE,BH:GP/C2/P,EMMSB/M1",
    "PTS,TBR,DE:GP,EDEBB,BC,SSSC/C1",
    "PTS,BBE,EDE/P,EDET,WIN,EGGSB/M1/P",
    "PTS,BH/F,BH:GP/C1/F,EDET/P,EMGSB/F",
]

# Tie-breaks whose value is a place inside the tied group: the checker prints 0 where Arbiter
# never applied them (a team already alone in its place).
GROUP = {"DE", "EDE", "EDET", "EDEB", "EDEBT", "EDEBB", "TBR", "BBE"}


def checker(path, lists):
    """The checker's text output for each list, or an exception's message."""
    from gacrux.tiebreak import tiebreak
    from gacrux.tiebreakchecker import tiebreakchecker

    sys.argv = ["tiebreakchecker.py", "-i", path, "-r", "-dT", "-t"] + lists[0].split(",")
    tbc = tiebreakchecker()
    with contextlib.redirect_stdout(io.StringIO()):
        tbc.do_command(tbc.read_command_line, 500, "Bad command line")
        tbc.read_input_file()
        if tbc.chessfile.get_status() >= 400:
            raise RuntimeError("; ".join(tbc.chessfile.chessjson["status"]["error"]))
        tbc.prepare_tournament()
    pristine = copy.deepcopy(tbc.chessfile.get_tournament(1))
    out = []
    for lst in lists:
        tbc.params["tiebreak"] = lst.split(",")
        t = copy.deepcopy(pristine)
        try:
            tb = tiebreak(t, tbc.params["current_round"], tbc.params)
            result = tb.compute_tiebreaks(t, tbc.params)
        except Exception:  # noqa: BLE001 - e.g. its SSSC adds a float to a Decimal
            out.append(None)
            continue
        text = io.StringIO()
        tbc.write_text_file(text, result, "\t", None)
        out.append(text.getvalue())
    return out


def parse_tsv(text):
    lines = [l for l in text.splitlines() if l.strip()]
    header = lines[0].split("\t")
    rows = {}
    for l in lines[1:]:
        f = l.split("\t")
        rows[int(f[1])] = (int(f[0]), [float(x) for x in f[2:]])
    return header[2:], rows


def ours(binary, path, lists):
    p = subprocess.run([binary, path] + lists, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(p.stderr.strip())
    return json.loads(p.stdout)


def compare(path, lists, expected, got):
    """The disagreements, as sentences; and how many values were compared."""
    problems, compared = [], 0
    for lst, text, mine in zip(lists, expected, got):
        if text is None:
            continue
        names, rows = parse_tsv(text)
        by_start = {r["start"]: r for r in mine["rows"]}
        if set(by_start) != set(rows):
            problems.append(f"{lst}: teams {sorted(set(rows) ^ set(by_start))} on one side only")
            continue
        for start, (rank, values) in sorted(rows.items()):
            r = by_start[start]
            if r["rank"] != rank:
                problems.append(f"{lst}: team {start} ranked {r['rank']}, checker {rank}")
            for name, want, v in zip(names, values, r["values"]):
                compared += 1
                code = name.split("/")[0].split(":")[0].upper()
                if v is None and code in GROUP:
                    v = 0.0
                if v is None or abs(v - want) > 0.005:
                    problems.append(f"{lst}: team {start} {name} = {v}, checker {want}")
    return problems, compared


def trf_files(paths):
    for p in paths:
        if os.path.isdir(p):
            for f in sorted(os.listdir(p)):
                if f.lower().endswith(".trf"):
                    yield os.path.join(p, f)
        else:
            yield p


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+", help="TRF files or folders of them")
    ap.add_argument("--lists", nargs="*", default=LISTS, help="tie-break lists, comma-separated")
    ap.add_argument("--fide-rank", default=os.path.join(root, "target/release/examples/fide_rank"))
    ap.add_argument("--save", help="copy disagreeing files and the checker's answers here")
    ap.add_argument("--expected", action="store_true", help="only write NAME.expected.tsv beside each file")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    files = list(trf_files(args.paths))
    if args.expected:
        for f in files:
            blocks = checker(f, args.lists)
            with open(os.path.splitext(f)[0] + ".expected.tsv", "w") as out:
                out.write("\n".join(b for b in blocks if b is not None))
        return 0

    stats = {
        "files": 0,
        "checker failed": 0,
        "lists": 0,
        "lists the checker failed": 0,
        "values": 0,
        "disagreeing files": 0,
    }
    for f in files:
        try:
            expected = checker(f, args.lists)
        except Exception as e:  # the checker cannot read or rank the file: nothing to compare
            stats["checker failed"] += 1
            if args.verbose:
                print(f"{f}: checker failed: {type(e).__name__}: {e}")
            continue
        stats["files"] += 1
        stats["lists"] += sum(1 for e in expected if e is not None)
        stats["lists the checker failed"] += sum(1 for e in expected if e is None)
        try:
            got = ours(args.fide_rank, f, args.lists)
            problems, compared = compare(f, args.lists, expected, got)
        except Exception as e:
            problems, compared = [f"Arbiter failed: {e}"], 0
        stats["values"] += compared
        if problems:
            stats["disagreeing files"] += 1
            print(f"{f}: {len(problems)} disagreement(s)")
            for p in problems[: 20 if args.verbose else 5]:
                print("    " + p)
            if args.save:
                os.makedirs(args.save, exist_ok=True)
                shutil.copy(f, args.save)
                name = os.path.splitext(os.path.basename(f))[0]
                with open(os.path.join(args.save, name + ".expected.tsv"), "w") as out:
                    out.write("\n".join(e for e in expected if e is not None))
    print(", ".join(f"{k}: {v}" for k, v in stats.items()))
    return 1 if stats["disagreeing files"] else 0


if __name__ == "__main__":
    sys.exit(main())
