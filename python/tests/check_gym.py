"""The suite's Gymnasium check (test/main/eval/python-package.test.ts): against a live
`splatlab rl`, gymnasium.utils.env_checker.check_env passes on the family's env built by
gymnasium.make (its spec lets check_env also build it for the render and close checks), with
every warning an error, and a short episode ends terminated with a reward in [0, 1].

    python check_gym.py URL TOKEN FAMILY TASK_ID
"""

import sys
import warnings

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

import splatlab.gym  # noqa: F401  (registers splatlab/SplatLab-v0)
from splatlab.families import ENDING_CALL

url, token, family, task_id = sys.argv[1:5]
warnings.simplefilter("error")
env = gymnasium.make("splatlab/SplatLab-v0", url=url, token=token, family=family, task_ids=[task_id], render_mode="rgb_array")
check_env(env.unwrapped)
print(f"ok   check_env passes ({family})")

raw = env.unwrapped
obs, info = env.reset(seed=5)
assert obs in raw.observation_space and obs["image_size"][0] > 0, "the first observation has its image"
assert raw.render().shape == raw.observation_space["image"].shape
tool, args = ENDING_CALL[family]
obs, reward, terminated, truncated, info = env.step(raw.action(tool, **args))
assert terminated and not truncated, (terminated, truncated, info)
assert isinstance(reward, float) and 0.0 <= reward <= 1.0, reward
try:
    env.step(raw.action(tool, **args))
    raise AssertionError("a step after the end must raise")
except RuntimeError:
    pass
assert np.array_equal(obs["image_size"], [0, 0]) or obs["image_size"][0] > 0
env.close()
env.close()
print(f"ok   an episode ends terminated with reward {reward} ({family})")
print(f"the {family} gymnasium env passes")
