"""What `evaluate` writes beside its journals: CSV tables, measures.json, two plots and summary.md."""

import csv
import json
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt

from smallville.baseline import OFFLINE_BASELINE
from smallville.evaluation.conditions import PAPER_HUMAN_MU
from smallville.evaluation.results import Results, interval_text

OFFLINE_NOTE = (
    f"{OFFLINE_BASELINE} Answered and judged by the offline mind: these figures test the code, not believability. "
    "Name a language model (--llm, --judge) for figures comparable with the paper's."
)

ESTIMATE_NOTE = (
    "Estimates are the run's cheap per-step figures, not the paper's measures: a memory's text matched the fact's "
    "keywords (awareness), anyone who named or talked with another (density)."
)
CASCADE_NOTE = (
    "cascade.csv says how each agent first learned each fact, from the memory that grounds its answer: seeded, "
    "whispered, told (by whom, when), saw, inferred (only a reflection or plan holds it), or unaware."
)
DEFINITIONS = (
    "Definitions (docs/evaluation.md): aware = the fact check accepts the interview answer and a memory shown to the "
    "judge supports it; density = the mutual-knowledge graph (both say who the other is); attendance = invitees "
    "(told before it began) at its place for a quarter of its window, there for it."
)
# The paper's figures for its own facts and town (section 7.1): awareness at the end of two days, the density of
# the relationship graph, and attendance.
PAPER_FIGURES = {"party": "52%", "candidacy": "32%", "density": "0.74", "attendance": "5 of 12 invited came"}


def write_all(folder: Path, results: Results, *, offline: bool, header: str, ledger: dict) -> list[Path]:
    """Every table, plot and the summary; returns the paths written."""
    written = [_ratings(folder, results), _statistics(folder, results), _measures(folder, results)]
    written += [_hallucinations(folder, results), _cascade(folder, results), _relationships(folder, results)]
    if results.attendance:
        written.append(_attendance(folder, results))
    written += _plots(folder, results)
    written.append(_summary(folder, results, offline=offline, header=header, ledger=ledger))
    return written


def _write_csv(path: Path, header: list[str], rows: list[list]) -> Path:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def _ratings(folder: Path, results: Results) -> Path:
    rows = [[rating.condition, f"{rating.mu:.4f}", f"{rating.sigma:.4f}"] for rating in results.ratings]
    return _write_csv(folder / "ratings.csv", ["condition", "mu", "sigma"], rows)


def _statistics(folder: Path, results: Results) -> Path:
    h, p = results.kruskal
    rows = [["kruskal_wallis", "all", "", f"{h:.4f}", f"{p:.6g}", "", "", "", ""]]
    bias = results.bias
    rows.append(
        ["position_bias", "kept_order", "chance", f"{bias.kept_order:.4f}", f"{bias.chance:.6g}", "", "", "", ""]
    )
    length = results.length
    rows.append(
        ["length_bias", "longest_first", "chance", f"{length.longest_first:.4f}", f"{length.chance:.6g}", "", "",
         "", ""]
    )  # fmt: skip
    rows += [["dunn", c.first, c.second, f"{c.z:.4f}", f"{c.p:.6g}", f"{c.p_holm:.6g}", f"{c.difference:.4f}",
              f"{c.low:.4f}", f"{c.high:.4f}"] for c in results.comparisons]  # fmt: skip
    header = ["test", "first", "second", "statistic", "p", "p_holm", "place_difference", "ci_low", "ci_high"]
    return _write_csv(folder / "statistics.csv", header, rows)


def _measures(folder: Path, results: Results) -> Path:
    path = folder / "measures.json"
    path.write_text(json.dumps(results.measures(), indent=2) + "\n")
    return path


def _hallucinations(folder: Path, results: Results) -> Path:
    """Each claim no memory supports, with the claim checked and every memory the judge was shown (id: text)."""
    rows = [
        [r["agent"], r["kind"], r["subject"], r["question"], r["answer"], r.get("claim", ""),
         " | ".join(f"{shown['id']}: {shown['text']}" for shown in r.get("shown", []))]
        for r in results.hallucinated
    ]  # fmt: skip
    header = ["agent", "kind", "subject", "question", "answer", "claim", "memories shown"]
    return _write_csv(folder / "hallucinations.csv", header, rows)


def _cascade(folder: Path, results: Results) -> Path:
    rows = [[c.fact, c.agent, c.how, c.source or "", c.when.isoformat() if c.when else ""] for c in results.cascades]
    return _write_csv(folder / "cascade.csv", ["fact", "agent", "how", "source", "when"], rows)


def _relationships(folder: Path, results: Results) -> Path:
    """Each grounded "A knows who B is" (the directed graph), and whether B knows A too (the paper's mutual edge)."""
    edges = set(results.knows)
    rows = [[a, b, "yes" if (b, a) in edges else "no"] for a, b in sorted(edges)]
    return _write_csv(folder / "relationships.csv", ["agent", "knows", "mutual"], rows)


def _attendance(folder: Path, results: Results) -> Path:
    """Everyone invited or present, per window: invited, share of the window at the place, why there for it, came."""
    rows = [
        [window, agent, "yes" if invited else "no", f"{share:.3f}", why, "yes" if invited and why else "no"]
        for window, agent, invited, share, why in results.attendance.rows
    ]
    header = ["window", "agent", "invited", "share of the window present", "there for it", "came"]
    return _write_csv(folder / "attendance.csv", header, rows)


def _plots(folder: Path, results: Results) -> list[Path]:

    matplotlib.use("Agg")

    figure, axis = plt.subplots(figsize=(8, 4))
    labels = [condition.label for condition in results.conditions]
    mus = [rating.mu for rating in results.ratings]
    axis.errorbar(range(len(mus)), mus, yerr=[rating.sigma for rating in results.ratings], fmt="o", capsize=4)
    paper = [condition.paper_mu for condition in results.conditions]
    axis.scatter([i for i, mu in enumerate(paper) if mu], [mu for mu in paper if mu], marker="x", label="the paper")
    axis.set_xticks(range(len(labels)), labels, rotation=15, fontsize=8)
    axis.set(title="Believability: TrueSkill mu ± sigma per condition", ylabel="mu")
    axis.legend()
    figure.tight_layout()
    ratings_png = folder / "ratings.png"
    figure.savefig(ratings_png, dpi=100)
    plt.close(figure)

    figure, axis = plt.subplots(figsize=(8, 4))
    facts = list(results.awareness)
    interview = [100 * results.awareness[f] for f in facts]
    errors = [[100 * (results.awareness[f] - results.awareness_interval[f][0]) for f in facts],
              [100 * (results.awareness_interval[f][1] - results.awareness[f]) for f in facts]]  # fmt: skip
    axis.bar([i - 0.2 for i in range(len(facts))], interview, 0.4, yerr=errors, capsize=4, label="interview, grounded")
    keyword = [100 * results.awareness_estimate.get(f, 0) for f in facts]
    axis.bar([i + 0.2 for i in range(len(facts))], keyword, 0.4, label="keyword estimate")
    axis.set_xticks(range(len(facts)), facts)
    axis.set(title="Awareness per fact", ylabel="% of agents", ylim=(0, 100))
    axis.legend()
    figure.tight_layout()
    awareness_png = folder / "awareness.png"
    figure.savefig(awareness_png, dpi=100)
    plt.close(figure)
    return [ratings_png, awareness_png]


def _place_difference(comparison) -> str:
    """How far apart two conditions rank ("B ranked 0.31 [0.22, 0.40] places lower on average, "), if paired."""
    if comparison.difference != comparison.difference:  # NaN: not paired
        return ""
    interval = interval_text(comparison.difference, (comparison.low, comparison.high))
    return f"{comparison.second} ranked {interval} places lower on average, "


def _summary(folder: Path, results: Results, *, offline: bool, header: str, ledger: dict) -> Path:
    lines = [f"# Evaluation of {header}", ""]
    if offline:
        lines += [f"> {OFFLINE_NOTE}", ""]
    lines += ["## Believability (controlled evaluation, section 6)", ""]
    lines += [
        f"{results.judgements} questions ranked by the judge (repeats that agree count once); TrueSkill mu 25, "
        "sigma 25/3 to start.",
        "",
    ]
    lines += ["| condition | mu | sigma | mean rank | the paper's mu |", "|---|---|---|---|---|"]
    for condition, rating in zip(results.conditions, results.ratings, strict=True):
        paper = f"{condition.paper_mu:.2f}" if condition.paper_mu else "-"
        rank = results.mean_ranks[condition.name]
        lines.append(f"| {condition.label} | {rating.mu:.2f} | {rating.sigma:.2f} | {rank:.2f} | {paper} |")
    lines += [f"| (the paper's human crowdworkers) | | | | {PAPER_HUMAN_MU:.2f} |", ""]
    h, p = results.kruskal
    lines += [f"Kruskal-Wallis over ranks: H = {h:.2f}, p = {p:.3g}.", "", "Dunn's pairwise tests (Holm):", ""]
    lines += [f"- {c.first} vs {c.second}: {_place_difference(c)}z = {c.z:.2f}, p = {c.p:.3g}, Holm p = {c.p_holm:.3g}"
              for c in results.comparisons]  # fmt: skip
    lines += ["", f"Judge {results.bias.text()}.", f"Judge {results.length.text()}."]
    lines += ["", "## End-to-end measures by interview (section 7)", "", DEFINITIONS, ""]
    lines += ["| measure | by the paper's definition [95% interval over agents] | the paper | estimate |"]
    lines += ["|---|---|---|---|"]
    for fact, share in results.awareness.items():
        interval = interval_text(share, results.awareness_interval[fact], 0, 100)
        estimate = 100 * results.awareness_estimate.get(fact, 0)
        paper = PAPER_FIGURES.get(fact, "-")
        lines.append(f"| awareness of {fact} (%) | {interval} | {paper} | {estimate:.0f} |")
    density = interval_text(results.density, results.density_interval, 3)
    # The paper's town-wide figures are the Ville's: shown beside a town that tracks the paper's facts only.
    paper_town = any(fact in PAPER_FIGURES for fact in results.awareness)
    lines.append(
        f"| relationship density (mutual) | {density}; directed {results.density_directed:.3f} | "
        f"{PAPER_FIGURES['density'] if paper_town else '-'} | {results.density_estimate:.3f} |"
    )
    if results.attendance:
        present = results.attendance
        lines.append(
            f"| attendance | {present.text()} | {PAPER_FIGURES['attendance'] if paper_town else '-'} | "
            f"{len(present.present)} present |"
        )
    measures = results.measures()
    lines += ["", f"Hallucinations: {measures['hallucinations']} of {results.checked} answers checked claim what no "
              "memory shown to the judge supports (hallucinations.csv, with those memories)."]  # fmt: skip
    lines += ["", ESTIMATE_NOTE, CASCADE_NOTE, ""]
    calls = f"{ledger['calls']} ({ledger['cache_hits']} from the cache), {ledger['tokens']} tokens"
    lines += [f"Model calls of this evaluate command: {calls}, ${ledger['cost']:.4f}."]
    if ledger.get("reused"):
        lines += [f"Requests identical to one already asked, answered once: {ledger['reused']}."]
    if ledger.get("run_tokens"):
        share = ledger["tokens"] / ledger["run_tokens"]
        lines += [f"Evaluation tokens against the run's: {ledger['tokens']} vs {ledger['run_tokens']} ({share:.2f}x)."]
    lines += [""]
    path = folder / "summary.md"
    path.write_text("\n".join(lines))
    return path
