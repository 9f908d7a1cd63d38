"""Blueprint placeholder: the owning area fills it in."""

from flask import Blueprint

bp = Blueprint("desk", __name__)
