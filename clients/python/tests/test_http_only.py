"""HTTP needs only the standard library: the package imports and scores without ``websockets``, and a
streaming name says to install it when used (review s43, finding 8); ``from steplens_client import *`` works
without it too (it raised that ImportError: every name of ``__all__`` was imported); the package ships ``py.typed``."""

import json
import subprocess
import sys
import textwrap
import unittest

import support

#: Run in a fresh interpreter whose imports of websockets fail, as on a Python without the package.
PROGRAM = textwrap.dedent("""
    import json, sys

    class HideWebsockets:
        def find_spec(self, name, path=None, target=None):
            if name == "websockets" or name.startswith("websockets."):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, HideWebsockets())
    sys.path.insert(0, sys.argv[1])
    url, task, text = sys.argv[2], sys.argv[3], open(sys.argv[4], encoding="utf-8").read()
    star = {}
    exec("from steplens_client import *", star)
    from steplens_client.http import HttpClient
    from steplens_client import HttpClient as Same, SteplensError, TrlReward, VerlReward, compute_score, events, load
    out = {"same": HttpClient is Same is star["HttpClient"], "health": HttpClient(url).health(),
           "trl": TrlReward(url)([None], [text], task=[task]), "verl": VerlReward(url)("d", text, task),
           "make_step": star["make_step"]("ls", "a", exit_code=0)["action"], "star": sorted(n for n in star if n != "__builtins__")}
    from steplens_client import connect, StepHook, SyncClient
    for name, use in (("connect", lambda: connect(url)), ("SyncClient", lambda: SyncClient(url)), ("StepHook", lambda: StepHook(url, task)),
                      ("SyncClient.start", lambda: SyncClient.start), ("star connect", lambda: star["connect"](url))):
        try:
            use()
            out[name] = "ran"
        except ImportError as e:
            out[name] = [type(e).__name__, e.name, str(e)]
    out["isinstance"] = isinstance(object(), SyncClient)
    out["websockets_imported"] = "websockets" in sys.modules
    print(json.dumps(out))
""")


class HttpOnlyTest(unittest.TestCase):
    def test_http_without_websockets(self):
        url = support.server_url()
        run = subprocess.run([sys.executable, "-c", PROGRAM, str(support.CLIENT_DIR), url, support.ASTROID_TASK, str(support.ASTROID_FAIL)],
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stderr)
        out = json.loads(run.stdout)
        from steplens_client import HttpClient
        expected = HttpClient(url).score(support.ASTROID_TASK, support.ASTROID_FAIL.read_text(encoding="utf-8"))["score"]["total"] * 0.01
        self.assertEqual((out["same"], out["health"], out["trl"], out["verl"]), (True, True, [expected], expected))
        import steplens_client
        self.assertEqual(out["star"], sorted(steplens_client.__all__))
        self.assertEqual(out["make_step"], {"kind": "shell", "command": "ls"})
        for name in ("connect", "SyncClient", "StepHook", "SyncClient.start", "star connect"):
            kind, module, message = out[name]
            self.assertEqual((kind, module), ("ModuleNotFoundError", "websockets"), name)
            self.assertIn(f"steplens_client.{name.split('.')[0].replace('star ', '')}: streaming", message)
            self.assertIn("needs the websockets package", message)
            self.assertIn("pip install websockets", message)
        self.assertFalse(out["isinstance"])
        self.assertFalse(out["websockets_imported"])

    def test_names_are_the_same_objects_as_in_their_modules(self):
        import steplens_client
        from steplens_client import hook, http, rewards, stream, sync

        self.assertIs(steplens_client.HttpClient, http.HttpClient)
        self.assertIs(steplens_client.StepHook, hook.StepHook)
        self.assertIs(steplens_client.step_rewards, rewards.step_rewards)
        self.assertIs(steplens_client.connect, stream.connect)
        self.assertIs(steplens_client.SyncClient, sync.SyncClient)
        self.assertTrue(set(steplens_client.__all__) <= set(dir(steplens_client)))
        for name in steplens_client.__all__:
            self.assertTrue(hasattr(steplens_client, name), name)
        with self.assertRaises(AttributeError):
            steplens_client.no_such_name  # noqa: B018

    def test_ships_py_typed(self):
        self.assertTrue((support.CLIENT_DIR / "steplens_client" / "py.typed").is_file())
        pyproject = (support.CLIENT_DIR / "pyproject.toml").read_text(encoding="utf-8")
        try:
            import tomllib
        except ImportError:  # Python < 3.11
            self.assertIn('steplens_client = ["py.typed"]', pyproject)
            return
        data = tomllib.loads(pyproject)
        self.assertIn("py.typed", data["tool"]["setuptools"]["package-data"]["steplens_client"])


if __name__ == "__main__":
    unittest.main()
