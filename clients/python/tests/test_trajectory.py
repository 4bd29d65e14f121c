"""Client-side log handling (no server): text parsing, format detection, event splitting of real corpus files."""

import unittest

import support
from steplens_client import SteplensError, detect_format, events, load, parse_text
from steplens_client.frames import parse_frame


class TrajectoryTest(unittest.TestCase):
    def test_parse_text_json_and_jsonl(self):
        self.assertEqual(parse_text('{"a": 1}'), {"a": 1})
        self.assertEqual(parse_text('{"a": 1}\n\n{"b": 2}\n'), [{"a": 1}, {"b": 2}])
        for bad, where in (("", "empty"), ("{ oops", "invalid JSON"), ('{"a": 1}\n{oops\n', "line 2")):
            with self.assertRaises(SteplensError) as e:
                parse_text(bad, "x.json")
            self.assertEqual(e.exception.code, "bad_input")
            self.assertIn(where, str(e.exception))

    def test_detects_and_splits_real_logs(self):
        mini = load(support.ASTROID_FAIL)
        self.assertEqual(detect_format(mini), "mini-swe-agent")
        self.assertEqual(events(mini), mini["messages"])
        swe = load(support.CORPUS / "christsakm__Trajectories/TODO/dask__dask-8685/trace_01_gpt-5-2025-08-07/dask__dask-8685.traj")
        self.assertEqual(detect_format(swe), "swe-agent")
        split = events(swe)
        self.assertEqual(len(split), len(swe["trajectory"]))
        self.assertTrue(any("tool_calls" in e for e in split))  # matched from history, as the server does
        self.assertIsNone(detect_format({"something": "else"}))
        with self.assertRaises(SteplensError):
            events({"something": "else"})
        with self.assertRaises(SteplensError):
            events(mini, "nonesuch")

    def test_an_output_jsonl_of_several_instances_gives_the_task_s_instance(self):
        # A real OpenHands output.jsonl of 3 instances: events() used to give the first instance's history whatever the
        # task, so step_rewards streamed another run than the one POST /v1/score scores for that task.
        doc = load(support.CORPUS / "OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl")
        ids = [inst["instance_id"] for inst in doc]
        self.assertEqual(len(ids), 3)
        for inst in doc:
            self.assertEqual(events(doc, task=inst["instance_id"]), inst["history"])
        for task in (None, "nonesuch"):
            with self.assertRaises(SteplensError) as e:
                events(doc, task=task)
            self.assertEqual(e.exception.code, "bad_input")
            self.assertIn(f"a log of 3 instances ({', '.join(ids)})", str(e.exception))
        self.assertIn("none is task nonesuch", str(e.exception))
        self.assertEqual(events(doc[1:2]), doc[1]["history"])  # one instance: no task needed

    def test_load_reads_gzipped_logs_and_names_broken_files(self):
        # The CLI reads gzipped logs (docs/your-logs.md); load() raised UnicodeDecodeError on one, and on any binary file.
        import gzip
        import tempfile
        from pathlib import Path
        gz = support.REPO / "test/fixtures/coder__django__django-11797.traj.gz"
        doc = load(gz)
        self.assertEqual(doc, parse_text(gzip.decompress(gz.read_bytes()).decode("utf-8")))
        self.assertEqual(detect_format(doc), "swe-agent")
        with tempfile.TemporaryDirectory() as d:
            cut = Path(d) / "cut.traj.gz"
            cut.write_bytes(gz.read_bytes()[:5000])
            binary = Path(d) / "binary.traj"
            binary.write_bytes(gz.read_bytes()[2:])  # not UTF-8
            for path, why in ((cut, "truncated or broken gzip data"), (binary, "binary data, not a text log")):
                with self.assertRaises(SteplensError) as e:
                    load(path)
                self.assertEqual(e.exception.code, "bad_input")
                self.assertIn(f"{path}: {why}", str(e.exception))

    def test_a_coder_log_with_messages_of_arrays_is_swe_agent_as_the_server_reads_it(self):
        # CodeR (a SWE-agent 0.x variant) keeps each role's conversation in a top-level `messages` of arrays; the server
        # reads such a log as swe-agent (src/formats/swe-agent.ts). The client took it for mini-swe-agent, so events()
        # gave those arrays and the server refused the first step (2 of ../shared/calibration's 199 CodeR runs).
        doc = load(support.REPO / "test/fixtures/coder__sympy__sympy-13971.traj.gz")
        self.assertIsInstance(doc["messages"][0], list)
        self.assertEqual(detect_format(doc), "swe-agent")
        split = events(doc)
        self.assertEqual(len(split), len(doc["trajectory"]))
        self.assertTrue(all(isinstance(e, dict) and isinstance(e.get("action"), str) for e in split))
        # A mini-swe-agent log with a `trajectory` key of its own is still mini-swe-agent (no SWE-agent entries there).
        mini = load(support.ASTROID_FAIL)
        self.assertEqual(detect_format({**mini, "trajectory": [{"role": "user"}]}), "mini-swe-agent")

    def test_server_frames_are_checked(self):
        self.assertEqual(parse_frame('{"type": "pong"}'), (True, {"type": "pong"}))
        self.assertEqual(parse_frame(b'{"type": "resumed", "session": "s", "last": 3}')[0], True)
        self.assertEqual(parse_frame('{"type": "score", "session": "s"}'), (False, "type 'score': missing seq, t, score, reward"))
        # A type added after this client is valid (ignored by the client): additions are part of the protocol.
        self.assertEqual(parse_frame('{"type": "notice"}'), (True, {"type": "notice"}))
        self.assertFalse(parse_frame('{"type": 7}')[0])
        self.assertFalse(parse_frame("not json")[0])


if __name__ == "__main__":
    unittest.main()
