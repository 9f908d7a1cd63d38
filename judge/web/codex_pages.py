"""Blueprint placeholder: the owning area fills it in."""

from flask import Blueprint

bp = Blueprint("codex", __name__)
