"""A toy computation for the engine tests."""


def total_size(work):
    work.state["total_size"] = sum(t["size"] for t in work.entities.get("token", []))
    work.note(f"Tokens now total {work.state['total_size']}.")


FUNCTIONS = {"total_size": total_size}
