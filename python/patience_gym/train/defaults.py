"""Each game's default network and PPO settings, and the network a run
starts from (a model file given with --init, or a new one of the settings'
widths)."""

from __future__ import annotations

from dataclasses import dataclass

from .._lib import GameSpec
from .config import NetConfig
from .model_file import HEAD_VALUE, load_model
from .net import PolicyNet

__all__ = ["DEFAULTS", "GameDefaults", "start_net"]



@dataclass(frozen=True)
class GameDefaults:
    """A game's default network and PPO settings.

    The hidden widths, card_dim and dtype keep the file at most 2 MB. With
    card_dim 0 the first layer has one row per one-hot input (39,825 in
    Cromwell) and dominates; a card-embedding first layer (card_dim above
    0) has card_dim columns per card cell instead of 54, so it can be wider.
    """

    hidden: tuple[int, ...]
    card_dim: int = 0
    dtype: str = "f16"
    gamma: float = 0.99
    num_envs: int = 64
    num_steps: int = 128
    lr: float = 3e-4
    ent_coef: float = 0.01


DEFAULTS: dict[str, GameDefaults] = {
    "cromwell": GameDefaults(hidden=(128, 256), card_dim=6, gamma=0.995),
    "fifteen": GameDefaults(hidden=(192, 256), card_dim=8, gamma=0.995),
    "fourquarters": GameDefaults(hidden=(256, 256), card_dim=16, gamma=0.99),
    "ladder": GameDefaults(hidden=(256, 256), card_dim=8, gamma=0.995),
    "limited": GameDefaults(hidden=(256, 256), card_dim=16, gamma=0.99),
    "royalparade": GameDefaults(hidden=(256, 256), card_dim=16, gamma=0.99),
}



def start_net(cfg: NetConfig, spec: GameSpec, head: str = "") -> PolicyNet:
    """The network a run starts from: cfg.init's model, which must have the
    same head ("" a policy, HEAD_VALUE a value network), or a new network of
    cfg's widths (the game's defaults where not given); fills in
    cfg.hidden, cfg.card_dim and cfg.dtype."""
    d = DEFAULTS[spec.name]
    cfg.dtype = cfg.dtype or d.dtype
    if cfg.init:
        net, meta = load_model(cfg.init, spec.name)
        if meta.get("head", "") != head:
            want, got = ("a value network", "a policy") if head else ("a policy", "a value network")
            raise ValueError(f"{cfg.init} is {got}; this run starts from {want}")
        cfg.hidden, cfg.card_dim = net.hidden, net.card_dim
        return net
    cfg.hidden = cfg.hidden or d.hidden
    cfg.card_dim = d.card_dim if cfg.card_dim < 0 else cfg.card_dim
    return PolicyNet(spec, cfg.hidden, 1 if head == HEAD_VALUE else spec.actions, card_dim=cfg.card_dim)
