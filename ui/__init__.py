"""KG Scout's web UI (Gradio). Presentation only: every answer comes from engine.scout."""

from .app import build, launch_options

__all__ = ["build", "launch_options"]
