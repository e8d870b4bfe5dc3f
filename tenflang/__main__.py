import signal

signal.signal(signal.SIGINT, signal.SIG_DFL)    # Ctrl-C while starting: no traceback
from .cli import main  # noqa: E402

if __name__ == "__main__":
    main()
