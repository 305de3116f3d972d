"""The paper's evaluation of a run (Park et al. 2023, sections 6 and 7).

An interview battery, believability judged across conditions with TrueSkill ratings, and awareness, relationships
and attendance measured by interview.
"""

from smallville.evaluation.attendance import Attendance, attendance
from smallville.evaluation.battery import Battery, BatteryError, load_battery
from smallville.evaluation.conditions import CONDITIONS, Condition, register, visible_stream
from smallville.evaluation.measures import Learned
from smallville.evaluation.ratings import Rating, rate
from smallville.evaluation.runner import EvaluationError, evaluate_run
from smallville.evaluation.statistics import Comparison, dunn, holm, kruskal_wallis

__all__ = [
    "CONDITIONS",
    "Attendance",
    "Battery",
    "BatteryError",
    "Comparison",
    "Condition",
    "EvaluationError",
    "Learned",
    "Rating",
    "attendance",
    "dunn",
    "evaluate_run",
    "holm",
    "kruskal_wallis",
    "load_battery",
    "rate",
    "register",
    "visible_stream",
]
