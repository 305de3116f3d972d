"""The paper's evaluation of a run (Park et al. 2023, sections 6 and 7), by its definitions, validated.

An interview battery, believability judged across conditions with TrueSkill ratings (ties are draws, the judge's
position and length biases measured), and awareness, relationships, attendance and the diffusion cascade measured by
interview,
each "yes" grounded by the judge in the memories the agent holds. The measures are validated on a ground-truth town
(truth.py) and a judge on a labelled set of answers (labelled.py); docs/evaluation.md states the definitions.
"""

from smallville.evaluation.attendance import Attendance, attendance
from smallville.evaluation.battery import Battery, BatteryError, load_battery
from smallville.evaluation.conditions import CONDITIONS, Condition, register, visible_stream
from smallville.evaluation.labelled import JudgeScores, judge_labelled_set, load_labelled
from smallville.evaluation.measures import Learned
from smallville.evaluation.ratings import LengthBias, PositionBias, Rating, length_bias, position_bias, rate
from smallville.evaluation.runner import EvaluationError, evaluate_run
from smallville.evaluation.statistics import (
    Comparison,
    Difference,
    difference,
    dunn,
    holm,
    kruskal_wallis,
    mean_interval,
    seeds_needed,
    t_interval,
)

__all__ = [
    "CONDITIONS",
    "Attendance",
    "Battery",
    "BatteryError",
    "Comparison",
    "Condition",
    "Difference",
    "EvaluationError",
    "JudgeScores",
    "Learned",
    "LengthBias",
    "PositionBias",
    "Rating",
    "attendance",
    "difference",
    "dunn",
    "evaluate_run",
    "holm",
    "judge_labelled_set",
    "kruskal_wallis",
    "length_bias",
    "load_battery",
    "load_labelled",
    "mean_interval",
    "position_bias",
    "rate",
    "register",
    "seeds_needed",
    "t_interval",
    "visible_stream",
]
