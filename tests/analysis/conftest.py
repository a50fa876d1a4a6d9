# The API's checked GET, for the analysis's part of the paper record.
from tests.api.conftest import get_valid, openapi_schema  # noqa: F401
