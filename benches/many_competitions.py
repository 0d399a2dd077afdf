#!/usr/bin/env python3
"""The measurements of benches/many_competitions.sh (issue 35), against one running server.

Reads go to random competitions' pages; writes come from another process on the same database
(`many_competitions write`), as a second server's would. Prints one line a figure."""
import argparse, os, random, statistics, subprocess, threading, time, urllib.request

PAGES = ["", "/crosstable", "/explain", "/bulletin", "/standings.csv", "/ratings"] + [
    f"/rounds/{r}" for r in range(1, 8)]


def competitions(n):
    return [f"/leagues/fed-{l // 100 + 1:03}/2026-27/division-{l % 100 + 1:03}" for l in range(n)]


def fetch(base, path):
    started = time.perf_counter()
    with urllib.request.urlopen(base + path, timeout=60) as r:
        r.read()
        status = r.status
    return (time.perf_counter() - started) * 1000, status


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p / 100))] if xs else float("nan")


def say(what, xs):
    print(f"{what}: n={len(xs)} p50={pct(xs, 50):.1f} ms p90={pct(xs, 90):.1f} ms "
          f"p99={pct(xs, 99):.1f} ms", flush=True)


def in_threads(threads, work):
    out, lock = [], threading.Lock()
    def run(items):
        for item in items:
            r = work(item)
            with lock:
                out.append(r)
    return out, run


def cold_start(base, comps, seconds, threads=8):
    """Every competition's first read, from a server just started: (time since start, ms)."""
    order = comps[:]
    random.shuffle(order)
    start = time.perf_counter()
    results, lock = [], threading.Lock()
    it = iter(order)
    def run():
        while time.perf_counter() - start < seconds:
            with lock:
                path = next(it, None)
            if path is None:
                return
            ms, _ = fetch(base, path)
            with lock:
                results.append((time.perf_counter() - start, ms))
    ts = [threading.Thread(target=run) for _ in range(threads)]
    for t in ts: t.start()
    for t in ts: t.join()
    return results, order[len(results):]


def wrk(base, paths, seconds, connections, work):
    listing = os.path.join(work, "paths.txt")
    with open(listing, "w") as f:
        f.write("\n".join(paths))
    script = os.path.join(work, "random.lua")
    with open(script, "w") as f:
        f.write('paths = {}\nfor line in io.lines("%s") do paths[#paths+1] = line end\n'
                'math.randomseed(os.time())\n'
                'request = function() return wrk.format("GET", paths[math.random(#paths)]) end\n'
                % listing)
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency",
                          "-s", script, base], capture_output=True, text=True).stdout
    rps = next((l.split()[1] for l in out.splitlines() if l.startswith("Requests/sec")), "?")
    lat = {l.split()[0]: l.split()[1] for l in out.splitlines()
           if l.strip().startswith(("50%", "90%", "99%"))}
    errors = [l.strip() for l in out.splitlines() if "Non-2xx" in l or "Socket errors" in l]
    return rps, lat, errors


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--base"); a.add_argument("--n", type=int); a.add_argument("--pid", type=int)
    a.add_argument("--db"); a.add_argument("--writer"); a.add_argument("--work")
    a.add_argument("--seconds", type=int, default=10)
    a.add_argument("--cold", type=int, default=60, help="seconds of first reads after a start")
    a.add_argument("--crawl", type=int, default=1000, help="competitions crawled page by page")
    args = a.parse_args()
    comps = competitions(args.n)
    base = args.base
    print(f"== {args.n} competitions; server RSS at start {rss_mib(args.pid):.0f} MiB", flush=True)

    results, rest = cold_start(base, comps, args.cold)
    say("cold start, first reads in the first second", [ms for t, ms in results if t < 1])
    say("cold start, first reads after the first second", [ms for t, ms in results if t >= 1])
    print(f"cold start: {len(results)} competitions' first reads in {args.cold} s", flush=True)
    for path in rest:  # every competition read once
        fetch(base, path)
    print(f"RSS after every competition read once: {rss_mib(args.pid):.0f} MiB", flush=True)

    paths = [c + p for c in random.sample(comps, min(len(comps), 1000)) for p in ("", "/crosstable")]
    for c in paths:
        fetch(base, c)
    rps, lat, errors = wrk(base, paths, args.seconds, 64, args.work)
    print(f"reads, no writes (wrk -c64): {rps} req/s, {lat} {errors}", flush=True)

    # The writer writes through the reads below: wrk, 200 reads, and the home page 20 times.
    writer = subprocess.Popen([args.writer, "write", args.db, str(args.seconds + 20)],
                              stderr=subprocess.PIPE, text=True)
    time.sleep(1)
    rps_w, lat_w, errors = wrk(base, paths, args.seconds, 64, args.work)
    print(f"reads during two writes a second (wrk -c64): {rps_w} req/s, {lat_w} {errors}; "
          f"ratio {float(rps_w) / float(rps):.2f}", flush=True)

    # The first read of an untouched competition after a write elsewhere: sequential reads of
    # competitions read before (cached), each within half a second of a write.
    untouched = [fetch(base, random.choice(comps[1:]))[0] for _ in range(200)]
    say("a cached competition read during the writes", untouched)
    home = []
    for _ in range(20):
        time.sleep(0.5)
        home.append(fetch(base, "/")[0])
    say("the home page, each read after a write", home)
    _, err = writer.communicate()
    print(f"writer: {err.strip()}", flush=True)
    quiet = [fetch(base, random.choice(comps[1:]))[0] for _ in range(200)]
    say("a cached competition read with no writes", quiet)

    crawl = random.sample(comps, min(len(comps), args.crawl))
    started = time.perf_counter()
    pages = 0
    for c in crawl:
        for p in PAGES:
            fetch(base, c + p)
            pages += 1
    print(f"crawl: {pages} pages of {len(crawl)} competitions in "
          f"{time.perf_counter() - started:.0f} s; RSS after {rss_mib(args.pid):.0f} MiB",
          flush=True)


if __name__ == "__main__":
    main()
