"""Generate the API client from the schema."""


def main() -> None:
    print("generated")
