"""Inspect AI tasks over `splatlab rl` (docs/AGENTS.md, "Python: the splatlab package"): one task
per family, `inspect eval splatlab/splatbench`, `splatlab/search`, `splatlab/relation`, so eval
sets, epochs (each epoch a fresh episode), message/token/time limits and the log viewer are
Inspect's own. Needs the `inspect` extra (inspect-ai). Written against Inspect's documented task
API (Task, Sample, @solver, ToolDef with ToolParams, execute_tools, @scorer with mean and stderr;
inspect_ai's docs/extensions-components.qmd for the `inspect_ai` entry point); inspect-ai cannot be
installed on the lab's build machines, so the suite checks this module's plain-Python parts only
(the JSON Schema conversion, the dataset rows, the scores), not an Inspect run.

    splatlab rl --port 8765 --token T --device cpu &
    SPLATLAB_RL_TOKEN=T inspect eval splatlab/splatbench --model openai/gpt-5 --epochs 3 -T tasks='*__sculpt'

The server holds the hidden grader; each sample's solver starts an episode (reset), gives the
model the first observation (reference sheet or view as an image, and the text) and the family's
tools, runs the model's tool calls as episode calls until the episode ends (or the model stops
calling tools for `max_idle_turns` turns: the family's give-up call, as `splatlab eval` does), and
the scorer ends an episode a limit cut short the same way and reads its reward.
"""

import asyncio
import base64
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, ContentImage, ContentText, execute_tools, get_model
from inspect_ai.scorer import Score, Target, mean, scorer, stderr
from inspect_ai.solver import Generate, TaskState, solver
from inspect_ai.tool import ToolDef, ToolParams

from .client import RLClient
from .families import ENDING_CALL
from .schema import inspect_schema, score_fields, task_rows

STORE_KEY = "splatlab"
SYSTEM = {
    "splatbench": "You rebuild a 3D object from reference photos with 3D Gaussians, using the tools. Render, compare with the photos and edit; call submit when done. Invalid calls still cost a call.",
    "search": "You move a camera through a 3D scene with the move and turn tools to answer the question; call stop with your answer.",
    "relation": "You answer spatial-relation questions about the scene shown, with the answer tool.",
}
REMINDER = "Use one of the tools; the episode only ends by a tool call."


def samples(client, family, tasks="*", split=None):
    """One Sample per task of the family on the server (a glob on the ids, an optional split)."""
    return [Sample(id=row["task_id"], input=f"SplatLab task {row['task_id']}", metadata=row) for row in task_rows(client.tasks(), family, tasks, split)]


def observation(out):
    """An RL answer as message content: its image (PNG data URL) and its text."""
    content = []
    if out.get("image_png_base64"):
        content.append(ContentImage(image="data:image/png;base64," + out["image_png_base64"]))
    content.append(ContentText(text=out["text"]))
    return content


def _tool(client, episode, spec, ended):
    async def execute(**kwargs: Any):
        out = await asyncio.to_thread(client.step, episode, spec["name"], kwargs)
        ended["out"] = out
        return observation(out) if out.get("image_png_base64") else out["text"]

    return ToolDef(execute, name=spec["name"], description=spec["description"], parameters=ToolParams(**inspect_schema(spec["parameters"]))).as_tool()


@solver
def splatlab_agent(url=None, token=None, family="splatbench", max_idle_turns=2):
    """Plays the sample's task as one episode: the model's tool calls are the episode's calls."""

    async def solve(state: TaskState, generate: Generate):
        client = RLClient(url, token)
        out = await asyncio.to_thread(client.reset, state.metadata["task_id"], f"inspect:{state.model}")
        episode = out["episode_id"]
        ended = {"out": out}
        state.store.set(STORE_KEY, {"episode_id": episode, "url": client.url})
        state.messages = [ChatMessageSystem(content=SYSTEM[family]), ChatMessageUser(content=observation(out))]
        state.tools = [_tool(client, episode, t, ended) for t in out["tools"]]
        model = get_model()
        idle = 0
        while not ended["out"]["done"]:
            state.output = await model.generate(state.messages, state.tools)
            state.messages.append(state.output.message)
            if state.output.message.tool_calls:
                idle = 0
                result = await execute_tools(state.messages, state.tools)
                state.messages.extend(result.messages)
                continue
            idle += 1
            if idle >= max_idle_turns:
                tool, args = ENDING_CALL[family]
                ended["out"] = await asyncio.to_thread(client.step, episode, tool, args)
                break
            state.messages.append(ChatMessageUser(content=REMINDER))
        return state

    return solve


def _final(state, url, token, family):
    """The episode's last answer, ending it with the family's give-up call when a limit cut the
    sample short (the scene or answers stand as they are and are graded)."""
    stored = state.store.get(STORE_KEY)
    if not stored:
        return None
    client = RLClient(url or stored["url"], token)
    try:
        return {"done": True, **client.reward(stored["episode_id"])}
    except Exception:
        tool, args = ENDING_CALL[family]
        return client.step(stored["episode_id"], tool, args)


def score_of(out, family):
    """The sample's Score value and explanation from the episode's final answer: the benchmark
    reward clip(SplatScore/100, 0, 1) for SplatBench (training reward in metadata), the search
    success or relation accuracy (the server's reward for those kinds)."""
    return Score(**score_fields(out, family))


def _scorer(family, url, token):
    async def score(state: TaskState, target: Target):
        out = await asyncio.to_thread(_final, state, url, token, family)
        return score_of(out, family)

    return score


@scorer(metrics=[mean(), stderr()])
def splatscore(url=None, token=None):
    """The lab's hidden grade as the benchmark reward clip(SplatScore / 100, 0, 1)."""
    return _scorer("splatbench", url, token)


@scorer(metrics=[mean(), stderr()])
def search_checker(url=None, token=None):
    """Search success: the answer against the task's (the server's reward)."""
    return _scorer("search", url, token)


@scorer(metrics=[mean(), stderr()])
def relation_accuracy(url=None, token=None):
    """Relation accuracy: the answers against the hidden labels (the server's reward)."""
    return _scorer("relation", url, token)


SCORERS = {"splatbench": splatscore, "search": search_checker, "relation": relation_accuracy}


def family_task(family, url=None, token=None, tasks="*", split=None, max_idle_turns=2):
    client = RLClient(url, token)
    return Task(
        dataset=MemoryDataset(samples(client, family, tasks, split), name=f"splatlab-{family}"),
        solver=splatlab_agent(url, token, family, max_idle_turns),
        scorer=SCORERS[family](url, token),
    )


@task
def splatbench(url=None, token=None, tasks="*", split=None, max_idle_turns=2):
    """SplatBench (sculpt, reassembly, one-shot) over `splatlab rl`."""
    return family_task("splatbench", url, token, tasks, split, max_idle_turns)


@task
def search(url=None, token=None, tasks="*", split=None, max_idle_turns=2):
    """Search (E3VS-style) over `splatlab rl`."""
    return family_task("search", url, token, tasks, split, max_idle_turns)


@task
def relation(url=None, token=None, tasks="*", split=None, max_idle_turns=2):
    """Relation (SpaRRTa-style) over `splatlab rl`."""
    return family_task("relation", url, token, tasks, split, max_idle_turns)

