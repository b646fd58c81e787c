"""A conformance check of SplatLabEnv in the spirit of Gymnasium's env checker
(gymnasium.utils.env_checker.check_env), standard library only. Run against a live server:

    python3 splatlab_env_check.py --url http://127.0.0.1:8765 --token T --family splatbench

Checks: the spaces are described; reset(seed) returns (obs, info) with obs in the observation
space and is deterministic for a seed; step returns the five values with the right types and obs
in the space; every tool of the family is in the action space with its argument schema, sampled
actions belong to the space and are accepted; a refused call is an outcome, not an exception;
reward is 0 before the end and in [0, 1] at it; terminated and truncated never both hold and an
episode played to its end says one of them; stepping after the end raises; close is idempotent.
Prints one line per check and exits 1 on the first failure.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from splatlab_gym_env import Dict, SplatLabEnv, Space, ToolCall  # noqa: E402

FAMILY_TOOLS = {
    "splatbench": {"add_gaussians", "edit_gaussians", "delete_gaussians", "transform_group", "list_gaussians", "describe_groups", "view_references", "render_views", "render_angle", "submit"},
    "search": {"move_forward", "move_back", "move_left", "move_right", "move_up", "move_down", "turn_left", "turn_right", "look_up", "look_down", "stop"},
    "relation": {"answer"},
}
# A call each family's tasks end with (terminated), and one the family refuses.
ENDING = {"splatbench": {"tool": "submit", "args": {}}, "search": {"tool": "stop", "args": {"answer": "red"}}, "relation": {"tool": "answer", "args": {"give_up": True}}}


class CheckFailed(Exception):
    pass


def check(cond, what):
    if not cond:
        raise CheckFailed(what)
    print(f"ok   {what}")


def check_step_result(env, result, what):
    check(isinstance(result, tuple) and len(result) == 5, f"{what}: step returns (obs, reward, terminated, truncated, info)")
    obs, reward, terminated, truncated, info = result
    check(env.observation_space.contains(obs), f"{what}: the observation is in the observation space")
    check(isinstance(reward, float), f"{what}: reward is a float")
    check(isinstance(terminated, bool) and isinstance(truncated, bool), f"{what}: terminated and truncated are bools")
    check(not (terminated and truncated), f"{what}: terminated and truncated are not both true")
    check(isinstance(info, dict) and info["outcome"]["status"] in ("ok", "refused", "failed"), f"{what}: info carries the call's outcome")
    return result


def run(url, token, family):
    env = SplatLabEnv(url, token, family=family)
    check(isinstance(env.action_space, ToolCall) and isinstance(env.observation_space, Dict), "the env describes its action and observation spaces")
    check(isinstance(env.observation_space, Space), "the observation space is a Space")
    missing = FAMILY_TOOLS[family] - set(env.action_space.names)
    check(not missing, f"every {family} tool is an action ({', '.join(sorted(FAMILY_TOOLS[family]))})")
    for name in env.action_space.names:
        check(isinstance(env.action_space.tools[name]["parameters"], dict), f"the action {name} has its argument schema")

    obs, info = env.reset(seed=123)
    check(isinstance(info, dict), "reset returns (obs, info) with info a dict")
    check(env.observation_space.contains(obs), "the reset observation is in the observation space")
    check(obs["image_png"] != b"", "the first observation has its image")
    first = (info["task_id"], obs["text"], obs["image_png"])
    obs2, info2 = env.reset(seed=123)
    check((info2["task_id"], obs2["text"], obs2["image_png"]) == first, "reset with the same seed gives the same first observation")

    sample = env.action_space.sample(env.np_random)
    check(env.action_space.contains(sample), "a sampled action is in the action space")
    check(not env.action_space.contains({"tool": "no_such_tool", "args": {}}), "an unknown tool is not in the action space")
    step = check_step_result(env, env.step(sample), "a sampled action")
    check(step[1] == 0.0 or step[2] or step[3], "reward is 0 before the end")

    if not (step[2] or step[3]):
        refused = check_step_result(env, env.step({"tool": "no_such_tool", "args": {}}), "a refused call")
        check(refused[4]["outcome"] == {"status": "refused", "code": "unknown_tool"} or refused[2] or refused[3], "a refused call comes back as an outcome, not an exception")

    obs, info = env.reset(seed=7)
    terminated = truncated = False
    for _ in range(10_000):
        action = ENDING[family] if env.np_random.random() < 0.3 else env.action_space.sample(env.np_random)
        obs, reward, terminated, truncated, info = check_step_result(env, env.step(action), "an episode step")
        if terminated or truncated:
            break
    check(terminated or truncated, "an episode played to its end says terminated or truncated")
    check(0.0 <= reward <= 1.0, "the reward at the end lies in [0, 1]")
    try:
        env.step(ENDING[family])
        raised = False
    except RuntimeError:
        raised = True
    check(raised, "step after the end raises (reset first)")
    env.close()
    env.close()
    check(True, "close is idempotent")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--url", required=True)
    p.add_argument("--token", default=os.environ.get("SPLATLAB_RL_TOKEN"))
    p.add_argument("--family", default="splatbench", choices=sorted(FAMILY_TOOLS))
    a = p.parse_args()
    try:
        run(a.url, a.token, a.family)
    except CheckFailed as e:
        print(f"FAIL {e}")
        return 1
    print(f"the {a.family} env passes the conformance check")
    return 0


if __name__ == "__main__":
    sys.exit(main())
