"""Blueprint placeholder: the owning area fills it in."""

from flask import Blueprint

bp = Blueprint("search", __name__)
