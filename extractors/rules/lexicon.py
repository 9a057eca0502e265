"""Word lists shared by the extractors: head nouns that type a phrase, and words that make it vague."""
from __future__ import annotations

import re


def words(text: str) -> frozenset[str]:
    """A frozenset of the whitespace-separated words of `text`."""
    return frozenset(text.split())


# Head word (lower-case, singular) -> type of the phrase it ends; each word in one list only (a test checks).
TASK_HEADS = words(
    "recognition detection classification segmentation generation estimation translation understanding "
    "retrieval synthesis prediction forecasting summarization summarisation parsing tracking reconstruction "
    "localization localisation captioning answering generalization generalisation adaptation identification "
    "re-identification reidentification quantification completion search editing planning navigation "
    "compression watermarking recommendation interpretability discovery testing labeling labelling tagging "
    "extraction verification super-resolution denoising transcription diarization decision-making "
    "inference engineering modeling modelling grounding matching alignment imputation "
    "clustering ranking regression control manipulation reasoning"
)
METHOD_HEADS = words(
    "learning fine-tuning finetuning training tuning pretraining pre-training post-training distillation "
    "regularization regularisation normalization normalisation decomposition descent optimization "
    "optimisation sampling scaling probing prompting attention pooling dropout augmentation hashing "
    "algorithm method technique framework pipeline mechanism module strategy procedure loss objective "
    "regularizer kernel prior intervention vector embedding encoding transformation rule quantization "
    "pruning feedback inpainting backpropagation back-propagation propagation bootstrapping "
    "boosting ensembling merging test approximation estimator "
    "conditioning aggregation ascent simulator simulation analysis decoding interpolation "
    "relaxation programming unlearning initialization initialisation clipping smoothing"
)
MODEL_HEADS = words(
    "model network net transformer autoencoder encoder decoder architecture llm llms mllm vlm gan "
    "perceptron mlp cnn rnn lstm process mixture agent machine operator classifier backbone predictor "
    "regressor forest"
)
DATASET_HEADS = words("dataset data-set corpus benchmark suite environment testbed database collection archive")
METRIC_HEADS = words(
    "score rate error accuracy divergence precision recall f1 auc auroc ratio perplexity bleu rouge "
    "variance dimensionality coefficient regret distance metric measure criterion index"
)
HEAD_TYPES: dict[str, str] = {
    **{w: "metric" for w in METRIC_HEADS}, **{w: "dataset" for w in DATASET_HEADS},
    **{w: "model" for w in MODEL_HEADS}, **{w: "method" for w in METHOD_HEADS},
    **{w: "task" for w in TASK_HEADS},
}
# Heads that only say what kind of thing the modifiers name ("the Foo dataset" names Foo).
GENERIC_HEADS = words(
    "method approach framework technique strategy algorithm model architecture network dataset benchmark "
    "corpus suite task problem metric measure score system pipeline module mechanism tool library "
    "environment paradigm family variant scheme procedure"
)
# Heads that never make an entity on their own, even with a specific modifier.
VAGUE_HEADS = words(
    "work paper study result performance experiment finding setting "
    "way setup issue aspect case question challenge limitation gap capability ability property "
    "behavior behaviour effect impact insight evidence improvement gain cost time number amount "
    "set part form type kind level range variety class quality state value feature function"
)
# Modifiers that carry no identity: they are stripped from the left of a phrase.
VAGUE_MODIFIERS = words(
    "a an the this that these those our their its his her my your we they such other another each every "
    "all any some many most more several various multiple different novel new proposed existing "
    "previous prior current recent standard typical common conventional traditional popular "
    "state-of-the-art sota strong simple efficient effective robust powerful general principled "
    "key main first second third last final same similar specific particular certain whole entire "
    "widely-used widely well-known large-scale small-scale real-world challenging diverse extensive "
    "comprehensive improved better best original modern classical classic naive vanilla given sufficient "
    "comparable later earlier specialized specialised default dominant desired "
    "respective corresponding underlying resulting following above both either neither few one two "
    "three four five six seven eight nine ten additional further various overall significant "
    "substantial considerable important crucial critical fundamental practical theoretical empirical "
    "lightweight scalable flexible generic broad wide rich high low higher lower downstream "
    "representative competitive leading prominent advanced sophisticated realistic varying complete verbose "
    "precise explicit rapid maximum minimum real future core accurate reliable fast faster direct indirect "
    "holistic consistent coherent faithful seamless successful meaningful proper careful rigorous thorough"
)
PROPOSAL_VERBS = words(
    "propose introduce present develop design build construct create curate release contribute "
    "formulate formalize formalise devise establish offer define call term dub name coin"
)
COINED = re.compile(
    r"^(?=.*[A-Za-z])(?:"
    r"[A-Z]{2,}[A-Za-z0-9+]*"  # acronyms: LLM, GPT, RoBERTa-like leading caps
    r"|[A-Za-z]*[a-z][A-Z][A-Za-z0-9+]*"  # inner capital: DeepSeek, PyTorch, wav2Vec
    r"|[A-Za-z]+\d[A-Za-z0-9.+]*"  # letters then digits: GPT4, Qwen3, CIFAR10
    r"|\d+[A-Za-z][A-Za-z0-9]*"  # digits then letters: 3D, 8B, 4K
    r"|[A-Z][A-Za-z]*\+\+"  # plus-plus names
    r")$"
)
MODEL_SIZE = re.compile(r"^\d+(?:\.\d+)?[BMK]$|^\d+x\d+B$", re.IGNORECASE)
