import os
import sys

from freezegun import freeze_time
from itsdangerous import Signer
from itsdangerous import TimedSerializer

from tests.helpers import make_key


def test_one():
    assert make_key()
