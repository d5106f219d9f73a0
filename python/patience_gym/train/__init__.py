"""Reference trainer: masked PPO on the vector environment, behaviour cloning
from ``patience generate`` datasets, DAgger, value learning, the
cross-entropy method, and the policy file the Go agent reads.

    python -m patience_gym.train ppo --game fifteen --steps 5M
    python -m patience_gym.train bc --data data/fifteen-mc --epochs 8
    python -m patience_gym.train ppo --game fifteen --init runs/bc/model.safetensors
    python -m patience_gym.train dagger --game limited --teacher mc
    python -m patience_gym.train value --moves data/cromwell-moves --choice
    python -m patience_gym.train cem --game limited
    python -m patience_gym.train eval --model models/limited.safetensors

One module per method, each readable from top to bottom (settings, data,
loop, evaluation): ppo.py, bc.py, dagger.py, value.py, winnable.py, cem.py.
Beside them: config.py (the settings the methods share and the run
directory's config.json), loop.py (the epochs of minibatches of bc, value
and winnable), net.py (the network: an MLP over the one-hot observation
whose first layer is a sum of embedding rows, or a card-embedding layer),
model_file.py (the safetensors policy format of docs/models.md, export and
load),
evaluation.py (play on fixed deals, the Go agents' reference levels),
curve.py (the learning curve and progress lines), data.py (dataset rows),
defaults.py (each game's default network and the network a run starts
from) and cli.py (the command line). The modules import one another only
downwards (cli -> methods -> config, loop -> evaluation, model_file ->
net), never in a circle.

Needs ``pip install "patience-gym[train]"`` (PyTorch, safetensors,
matplotlib, pyarrow). Training uses deals below 1,000,000 only: runs train
on deals from 0..899,999 and evaluate on deals from 900,000
(``EVAL_DEALS``), so that ``patience bench`` (deals from 1,000,000)
measures on deals never seen.
"""

from __future__ import annotations

try:
    import safetensors  # noqa: F401
    import torch  # noqa: F401
except ImportError as e:  # pragma: no cover - depends on the installation
    raise ImportError("patience_gym.train needs PyTorch and safetensors: pip install 'patience-gym[train]'") from e

from .bc import BCConfig, SoftTargets, soft_targets
from .cem import CEMConfig
from .cli import build_parser, main
from .curve import Curve
from .dagger import DAggerConfig
from .data import Rows, load_rows, read_rows
from .defaults import DEFAULTS, GameDefaults, start_net
from .evaluation import EVAL_DEALS, EvalResult, eval_deals, evaluate, evaluate_agent, play_deals, reference_levels
from .model_file import (
    ENCODING_CARDS,
    ENCODING_ONEHOT,
    HEAD_VALUE,
    MODEL_FORMAT,
    MODEL_FORMAT_VERSION,
    ModelError,
    export_model,
    load_model,
    model_file_bytes,
)

# The methods' functions (ppo, bc, dagger, value, cem) are not lifted here:
# their names are the modules' (patience_gym.train.ppo is the module;
# patience_gym.train.ppo.ppo the function).
from .net import CardLayout, PolicyNet, card_input_len, group_log_softmax, group_max, masked_argmax, masked_logits
from .ppo import PPOConfig
from .value import MoveRows, ValueConfig, read_move_rows, top_ties

__all__ = [
    "DEFAULTS",
    "ENCODING_CARDS",
    "ENCODING_ONEHOT",
    "EVAL_DEALS",
    "HEAD_VALUE",
    "MODEL_FORMAT",
    "MODEL_FORMAT_VERSION",
    "BCConfig",
    "CEMConfig",
    "CardLayout",
    "Curve",
    "DAggerConfig",
    "EvalResult",
    "GameDefaults",
    "ModelError",
    "MoveRows",
    "PPOConfig",
    "PolicyNet",
    "Rows",
    "SoftTargets",
    "ValueConfig",
    "build_parser",
    "card_input_len",
    "eval_deals",
    "evaluate",
    "evaluate_agent",
    "export_model",
    "group_log_softmax",
    "group_max",
    "load_model",
    "load_rows",
    "main",
    "masked_argmax",
    "masked_logits",
    "model_file_bytes",
    "play_deals",
    "read_move_rows",
    "read_rows",
    "reference_levels",
    "soft_targets",
    "start_net",
    "top_ties",
]
