"""Document-level claims of the StR-FedAvg paper on transcribed printed text and counts: the data description of
Sect. 5.1 and the datasets named in the abstract (the scale-down ratio m/n of :mod:`.sec_5_instances` is in a
witness).
"""

from __future__ import annotations

from fractions import Fraction

from fedtheory.harness.claims import Context, Evidence, claim, negative_control

from .sec_5_instances import DIM, N_ROWS, PAPER

# --------------------------------------------------------------------------------------------------
# Data description and document-level claims
# --------------------------------------------------------------------------------------------------
FEATURES, OBSERVATIONS, TRAIN_FRACTION = 730, 1068, (1, 2)

# the transcribed passages are keyed by their line in our text of the paper, as the witness of abstract:experiments
# names them
ABSTRACT_LINE = 10
ABSTRACT_EXPERIMENTS = (
    "Numerical experiments on EMNIST and CIFAR-10 demonstrate effective sparse solution selection and highlight "
    "the communication-efficiency benefits of larger local update steps."
)
SECTION_5 = {
    650: "The dataset used in this experiment is Wiki Math Essential dataset [25], with 730 number of features and "
    "1068 total number of observations. We split the data into 50% training and 50% testing data to ensure the "
    "inner-level problem is over-parameterized and yields to multiple optimal solutions, and we distribute the "
    "data among N=10 agents.",
    671: "min_x M^mu_LSP(x) s.t. x in argmin_y h(y) = 1/(2N) sum_i sum_l ||U_{i,l} y - v_{i,l}||^2. (16)",
    673: "Experiments and results. The experimental results for the nonconvex outer-level are shown in Figure 2. We "
    "test the performance of the two-loop scheme proposed for the nonconvex setting, where StR-FedAvg is employed "
    "in the inner loop. Three choices of local steps K={1,5,10,20} are used.",
}
ABSTRACT_DATASETS = ("EMNIST", "CIFAR-10")


@claim(
    f"{PAPER}/sec-5.1:data",
    source="Sect. 5.1, the data paragraph",
    statement="Arithmetic on the printed counts: 730 features, 1068 observations, 50% training split, N = 10 agents. "
    "The inner problem (15) on the training rows is over-parameterised (more features than training rows, so for a "
    "full-row-rank design X*_h is an affine set of dimension >= 730 - 534 = 196): measured the number of training rows "
    "1068/2, bound the number of features, relation <, exact (Fractions). Rows per agent in the witness. Negative "
    "control: a 75% training split (801 rows) must fail.",
    scope="printed",
    expect="holds",
)
def data_counts(ctx: Context) -> Evidence:
    """Exact arithmetic (Fractions) on the printed counts of the data paragraph: training rows against
    features; negative control with a 75% split."""
    train = Fraction(OBSERVATIONS) * Fraction(*TRAIN_FRACTION)
    control = Evidence(Fraction(OBSERVATIONS) * Fraction(3, 4), Fraction(FEATURES), "<")
    return Evidence(
        measured=train,
        bound=Fraction(FEATURES),
        relation="<",
        witness={
            "training rows": str(train),
            "dim X*_h lower bound (n - m_train)": str(FEATURES - train),
            "training rows per agent (N = 10)": str(train / 10),
            "note": "534 rows do not split evenly over 10 agents (53.4 each); the split method is not described",
            "scale-down ratio m/n": f"{N_ROWS}/{DIM} (= 534/730 rounded)",
            "negative control": negative_control(control, "the 50% training split replaced by 75%"),
        },
    )


@claim(
    f"{PAPER}/abstract:experiments",
    source="abstract; Sect. 5.1, the data paragraph; Sect. 5.2, problem (16) and the results paragraph",
    statement="Document consistency: every dataset the abstract names for the numerical experiments ('EMNIST and "
    "CIFAR-10') is named in Section 5, whose experiments (Sects. 5.1 and 5.2) both use 'Wiki Math "
    "Essential dataset [25]' (Sect. 5.2 uses 'the same' problem data, (16)). Measured: the "
    "number of abstract datasets found in the transcribed Section 5 text (witness), bound: the number named in the "
    "abstract, relation ==.",
    scope="printed",
    expect="fails",
)
def abstract_experiments(ctx: Context) -> Evidence:
    """The transcribed abstract sentence and Section 5 passages: the abstract's datasets found in Section 5 (a
    case-insensitive text search) against the number the abstract names."""
    text = " ".join(SECTION_5.values())
    found = [d for d in ABSTRACT_DATASETS if d.lower() in text.lower()]
    return Evidence(
        measured=len(found),
        bound=len(ABSTRACT_DATASETS),
        relation="==",
        witness={
            f"abstract, line {ABSTRACT_LINE}": ABSTRACT_EXPERIMENTS,
            **{f"Sect. 5, line {line}": quote for line, quote in SECTION_5.items()},
            "abstract datasets found in Sect. 5": found,
            "Sect. 5 dataset": "Wiki Math Essential (PyTorch Geometric Temporal, [25]); no image data, no deep net",
            "hypotheses": "A document-consistency check of printed text, not an experiment: the datasets the "
            "abstract names against the transcribed Section 5 passages (case-insensitive search); no mathematical "
            "hypothesis is involved.",
        },
    )
