"""References against a real server: a PTA added, then removed with ``remove_pta`` (``DELETE /v1/tasks/:task/pta``);
with tenants, a tenant removes its own PTA only, and another tenant's answers as a PTA nobody holds."""

import shutil
import tempfile
import unittest
from pathlib import Path

import support
from steplens_client import HttpClient, SteplensError


class RemovePtaTest(unittest.TestCase):
    def test_a_removed_pta_is_gone_and_the_task_grows_again_past_its_version(self):
        http = HttpClient(support.server_url())  # auth off: the one local operator, one PTA per task
        task = "py-remove-pta"
        for path in support.ASTROID_PASS:
            http.add_reference(task, support.read_json(path))
        self.assertEqual(http.remove_pta(task), {"task": task, "scope": "shared", "version": 2})
        self.assertNotIn(task, [t["task"] for t in http.tasks()])
        with self.assertRaises(SteplensError) as e:
            http.remove_pta(task)
        self.assertEqual((e.exception.code, e.exception.status), ("unknown_task", 404))
        self.assertIn(task, str(e.exception))
        self.assertEqual(http.add_reference(task, support.read_json(support.ASTROID_PASS[0]))["version"], 3)

    def test_a_tenant_removes_its_own_pta_and_nobody_elses(self):
        folder = Path(tempfile.mkdtemp(prefix="steplens-py-tenants-"))
        self.addCleanup(shutil.rmtree, folder, True)
        tokens = folder / "tokens"
        tokens.write_text("alice-token tenant=alice\nbob-token tenant=bob\nop-token tenant=ops role=operator\n", encoding="utf-8")
        url, stop = support.start_server(data=str(folder / "data"), extra=["--token-file", str(tokens)])
        self.addCleanup(stop)
        alice, bob, op = (HttpClient(url, token=t) for t in ("alice-token", "bob-token", "op-token"))
        task = support.ASTROID_TASK
        self.assertEqual(alice.add_reference(task, support.read_json(support.ASTROID_FAIL))["scope"], "tenant")
        for kwargs in ({}, {"tenant": "alice"}):
            with self.assertRaises(SteplensError) as e:
                bob.remove_pta(task, **kwargs)
            self.assertEqual(e.exception.code, "unknown_task")
        with self.assertRaises(SteplensError) as e:
            bob.remove_pta(task, scope="shared")
        self.assertEqual((e.exception.code, e.exception.status), ("forbidden", 403))
        self.assertEqual(op.remove_pta(task, tenant="alice"), {"task": task, "scope": "tenant", "version": 1})
        with self.assertRaises(SteplensError) as e:
            alice.remove_pta(task)
        self.assertEqual(e.exception.code, "unknown_task")


if __name__ == "__main__":
    unittest.main()
