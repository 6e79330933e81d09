"""The model's step labels against lrb's hook points: every LRB_HOOK_* of
include/linux/lockless_ring_buffer_test.h (as kernel-patch/ adds it) is a
label of model/lrb.pml, and every label names a hook point. The header is
read from the patch series, so that the check follows it."""

import re
from pathlib import Path
from typing import List, Set, Tuple

HEADER = 'include/linux/lockless_ring_buffer_test.h'
MEMBER = re.compile(r'\b(LRB_HOOK_\w+)\b')
# HOOK(P), RHOOK(P) and RAT(P) expand to the label LRB_HOOK_P
LABEL = re.compile(r'\b(?:R?HOOK|RAT)\((\w+)\)')


def header_changes(patch: str) -> Tuple[Set[str], Set[str]]:
    """Hook point names on the lines a patch removes from and adds to HEADER."""
    removed: Set[str] = set()
    added: Set[str] = set()
    inside = False
    for line in patch.splitlines():
        if line.startswith('diff --git '):
            inside = line.endswith('b/' + HEADER)
        elif inside and line.startswith('-') and not line.startswith('---'):
            removed.update(MEMBER.findall(line))
        elif inside and line.startswith('+') and not line.startswith('+++'):
            added.update(MEMBER.findall(line))
    return removed, added


# Hook points of code the model leaves out, and why
NOT_MODELLED = {
    'LRB_HOOK_RESET': 'reset runs under the mutex with no writer: not modelled',
    'LRB_HOOK_RESIZE': 'resize runs under the mutex with no writer: not modelled',
}


def hook_points(patch_dir: Path) -> Set[str]:
    """LRB_HOOK_* of HEADER after the series (LRB_HOOK_NR and the points of
    NOT_MODELLED left out)."""
    points: Set[str] = set()
    for patch in sorted(patch_dir.glob('*.patch')):
        removed, added = header_changes(patch.read_text(errors='replace'))
        points = (points - removed) | added
    points.discard('LRB_HOOK_NR')
    return points - set(NOT_MODELLED)


def model_code(model: str) -> str:
    """The model without its comments and macro definitions."""
    code = re.sub(r'/\*.*?\*/', '', model, flags=re.S)
    return re.sub(r'^#define .*?(?<!\\)$', '', code, flags=re.M | re.S)


def model_labels(model: str) -> Set[str]:
    """Hook labels of the model, comments left out."""
    return set(labels_in_order(model))


def labels_in_order(model: str) -> List[str]:
    """Hook labels of the model in the order they appear, comments left out."""
    return ['LRB_HOOK_' + p for p in LABEL.findall(model_code(model))]


def mismatch(points: Set[str], labels: Set[str]) -> List[str]:
    """What is wrong, one line each; empty when the two sets agree."""
    out = [f'{p}: hook point without a label in model/lrb.pml' for p in sorted(points - labels)]
    out += [f'{p}: label of model/lrb.pml that names no hook point' for p in sorted(labels - points)]
    return out
