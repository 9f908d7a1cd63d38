"""Blueprint placeholder: the owning area fills it in."""

from flask import Blueprint

bp = Blueprint("api", __name__)
