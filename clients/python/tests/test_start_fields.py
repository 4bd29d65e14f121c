"""Review s42, low: the Python client's ``start`` had no ``agent`` (the TS client and the protocol have one),
so a Python agent loop could not select its per-agent policy group or forecast model."""

import asyncio
import unittest

import support
from steplens_client import HttpClient, StepHook, SyncClient, connect


class StartFieldsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.url = support.server_url()
        cls.http = HttpClient(cls.url)
        cls.step = support.steplens_steps(support.ASTROID_FAIL)[0]

    def _named(self, session_id):
        doc = self.http.session(session_id)
        return doc.get("agent"), doc.get("model")

    def test_stream_sync_and_hook_send_agent_and_model(self):
        async def run():
            async with await connect(self.url, reconnect=False) as client:
                s = await client.start(support.ASTROID_TASK, agent="mini-swe-agent 1.1", model="deepseek/deepseek-chat")
                await s.step(self.step)
                return s.id

        self.assertEqual(self._named(asyncio.run(run())), ("mini-swe-agent 1.1", "deepseek/deepseek-chat"))
        with SyncClient(self.url) as client:
            s = client.start(support.ASTROID_TASK, agent="SWE-agent 1.1")
            self.assertEqual(self._named(s.id), ("SWE-agent 1.1", None))
        with StepHook(self.url, support.ASTROID_TASK, agent="openhands", model="claude-3.5-sonnet") as hook:
            hook.step(self.step["action"], self.step.get("observation"))
            self.assertEqual(self._named(hook.session.id), ("openhands", "claude-3.5-sonnet"))


if __name__ == "__main__":
    unittest.main()
