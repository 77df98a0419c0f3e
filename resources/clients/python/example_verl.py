#!/usr/bin/env python3
"""Posts a small verl batch to `creditlab-cli serve` and asks for GiGPO credit on it.

    creditlab-cli serve --db runs.db &          # prints: listening on http://127.0.0.1:8765/v1 (...)
    python3 example_verl.py [--url http://127.0.0.1:8765] [--iteration 0]

The batch is what verl's rollout dump (trainer.rollout_data_dir) writes, one record per sample: "input" (the
decoded prompt, ending by opening the assistant's message), "output" (the decoded multi-turn response, chat-
templated), "score", "step" and "uid" (the prompt's id, which groups the samples). 4 prompts x 2 responses.
A token, when the server needs one, comes from $CREDITLAB_SERVE_TOKEN.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from creditlab_client import Client, CreditLabError, advantages_by_index  # noqa: E402


def chatml(role, text):
    return "<|im_start|>%s\n%s<|im_end|>" % (role, text)


def record(uid, task, turns, score, step):
    """One verl sample. `turns` alternates the assistant's actions and the environment's replies, starting and
    ending with an action: the prompt opens the first assistant message, so the output starts with its text."""
    output = turns[0] + "<|im_end|>"
    for k in range(1, len(turns), 2):
        output += "\n" + chatml("user", turns[k]) + "\n" + chatml("assistant", turns[k + 1])
    prompt = chatml("user", task) + "\n<|im_start|>assistant\n"
    return {"input": prompt, "output": output, "score": score, "step": step, "uid": uid}


def build_batch(step):
    """4 prompts x 2 responses, 2 or 3 assistant turns each; the two responses of a prompt share their first state."""
    door = "You are in a room with a locked door. Get out."
    chest = "A chest stands in the corner. Find the coin."
    lamp = "The room is dark. Read the note on the table."
    math = "Compute 17 * 23. You may use the calculator: write calc(EXPR)."
    return [
        record("p0", door, ["look around", "You see a key on the floor.", "take key",
                            "You take the key.", "open door"], 1.0, step),
        record("p0", door, ["look around", "You see a key on the floor.", "open door",
                            "The door is locked.", "kick door"], 0.0, step),
        record("p1", chest, ["open chest", "The chest is empty.", "look under chest",
                             "You find a coin.", "take coin"], 1.0, step),
        record("p1", chest, ["open chest", "The chest is empty.", "take coin"], 0.0, step),
        record("p2", lamp, ["turn on lamp", "The room is lit. A note lies on the table.", "read note"], 1.0, step),
        record("p2", lamp, ["read note", "It is too dark to read.", "turn on lamp",
                            "The room is lit. A note lies on the table.", "read note"], 1.0, step),
        record("p3", math, ["calc(17 * 23)", "391", "The answer is 391."], 1.0, step),
        record("p3", math, ["17 * 23 is 381.", "Are you sure?", "Yes, 381."], 0.0, step),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8765", help="the server (default %(default)s)")
    parser.add_argument("--iteration", type=int, default=0, help="the iteration (verl's step) to post")
    args = parser.parse_args()

    client = Client(args.url)
    batch = build_batch(args.iteration)
    try:
        health = client.health()
        print("server %s, CreditLab %s" % (client.base_url, health.get("version")))
        run_id = client.create_run("verl example", config={"algorithm": "grpo", "model": "example"}, tags=["example"])

        scores = [r["score"] for r in batch]
        # verl's response_length counts tokens; whitespace-separated words stand in for them here.
        lengths = [len(r["output"].split()) for r in batch]
        stored = client.post_iteration(
            run_id,
            args.iteration,
            batch,
            format="verl",
            metrics={
                "critic/score/mean": sum(scores) / len(scores),
                "response_length/mean": sum(lengths) / len(lengths),
            },
        )
        print("run %d: iteration %d stored, %d trajectories, %d turns, %d metrics"
              % (run_id, stored["iteration"], stored["trajectories"], stored["turns"], stored["metrics"]))

        credits = client.credit("gigpo", batch, format="verl")
        by_index = advantages_by_index(credits)
        # verl's records carry no id: the server names each "line-N", N its 1-based position in the batch, so
        # credit i belongs to batch[i]. Each advantage goes onto the response tokens of its assistant message.
        for i, c in enumerate(credits):
            row = batch[i]
            joined = ", ".join("message %d: %+.4f" % (m, by_index[(c["id"], m)]) for m in c["message_index"])
            print("  %-7s uid %s score %.1f  %s" % (c["id"], row["uid"], row["score"], joined))

        finished = client.finish_run(run_id)
        turns = sum(len(c["advantages"]) for c in credits)
        print("run %d '%s' %s: %d trajectories, %d turns credited by gigpo"
              % (run_id, "verl example", finished["status"], len(credits), turns))
    except CreditLabError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
