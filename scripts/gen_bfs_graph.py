#!/usr/bin/env python3
"""Writes a graph in Rodinia bfs's input format (nodes as `start count`,
the source, then edges as `id cost`) for measuring gmem on Rodinia's BFS:
NODES nodes, each with 2 to 8 edges to nodes chosen by a fixed linear
congruential generator, so that every run makes the same graph.

Usage: scripts/gen_bfs_graph.py NODES OUT"""
import sys


def main():
    nodes, out = int(sys.argv[1]), sys.argv[2]
    state = 12345
    def rand():
        nonlocal state
        state = (state * 1103515245 + 12345) % (1 << 31)
        return state
    edges = []
    starts = []
    for n in range(nodes):
        starts.append((len(edges), 2 + rand() % 7))
        for _ in range(starts[-1][1]):
            # Mostly near neighbours, sometimes far: a few levels deep.
            step = rand() % 16 if rand() % 4 else rand() % nodes
            edges.append(((n + step + 1) % nodes, 1 + rand() % 10))
    with open(out, "w") as f:
        f.write(f"{nodes}\n")
        for s, c in starts:
            f.write(f"{s} {c}\n")
        f.write("\n0\n\n")
        f.write(f"{len(edges)}\n")
        for e, c in edges:
            f.write(f"{e} {c}\n")


if __name__ == "__main__":
    main()
