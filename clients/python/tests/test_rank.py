"""POST /v1/rank through HttpClient.rank against a real server: runs of one task best first, each scored
as POST /v1/score scores it; a live session ranked by its score so far; the consensus and vote bases; errors."""

import json
import subprocess
import unittest

import support
from steplens_client import HttpClient, SteplensError, SyncClient, events, load

#: pylint-dev__astroid-1866: three runs in the corpus, no bundled reference (ranked reference-free or by consensus).
OTHER_TASK = "pylint-dev__astroid-1866"
OTHER_RUNS = [support.CORPUS / support.MINI / f"{run}/{OTHER_TASK}/{OTHER_TASK}.traj.json" for run in ("deepseek_chat_dev", "deepseek_chat_dev_rerun", "deepseek_lite_dev_noparallel")]


class RankTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.http = HttpClient(support.server_url())
        cls.paths = [support.ASTROID_FAIL, *support.ASTROID_PASS]
        cls.docs = [support.read_json(p) for p in cls.paths]
        cls.single = [cls.http.score(support.ASTROID_TASK, d) for d in cls.docs]

    def test_runs_of_one_task_best_first_scored_as_post_score(self):
        answer = self.http.rank([{"trajectory": d, "id": p.parent.parent.name} for p, d in zip(self.paths, self.docs)])
        self.assertEqual((answer["task"], answer["by"]), (support.ASTROID_TASK, "pta"))
        runs = answer["runs"]
        self.assertEqual(sorted(r["index"] for r in runs), [0, 1, 2])
        for r in runs:
            self.assertEqual(r["composite"], self.single[r["index"]]["score"]["total"])
            self.assertEqual(r["score"], r["composite"])
            self.assertEqual(r["steps"], self.single[r["index"]]["steps"])
        self.assertEqual([r["score"] for r in runs], sorted((r["score"] for r in runs), reverse=True))
        # Tied runs (equal scores) share the rank of the first of them: 1, 1, 3.
        expected = [1]
        for k in range(1, len(runs)):
            expected.append(expected[-1] if runs[k]["score"] == runs[k - 1]["score"] else k + 1)
        self.assertEqual([r["rank"] for r in runs], expected)
        # The failing run (deepseek_lite_dev_noparallel) is last: the PTA was built from the two passing ones.
        self.assertEqual(runs[-1]["id"], "deepseek_lite_dev_noparallel")

    def test_a_live_session_ranks_by_its_score_so_far_and_text_is_parsed_client_side(self):
        steps = support.steplens_steps(support.ASTROID_FAIL)
        with SyncClient(self.http.url) as client:
            session = client.start(support.ASTROID_TASK)
            for step in steps:
                session.step(step)
            text = support.ASTROID_PASS[0].read_text(encoding="utf-8")
            answer = self.http.rank([{"session": session.id, "id": "live"}, {"trajectory": text}])
            session.end()
        by_id = {r["id"]: r for r in answer["runs"]}
        self.assertEqual(set(by_id), {"live", "runs[1]"})
        self.assertEqual(by_id["live"]["composite"], self.single[0]["score"]["total"])
        self.assertEqual(by_id["runs[1]"]["composite"], self.single[1]["score"]["total"])

    def test_a_coder_run_streamed_from_its_log_ranks_as_its_trajectory(self):
        # A CodeR log whose `messages` hold arrays (../shared/calibration's sympy__sympy-13971): events() split it as
        # mini-swe-agent, and the server refused its first step, so the run could not be streamed, nor ranked live.
        doc = load(support.REPO / "test/fixtures/coder__sympy__sympy-13971.traj.gz")
        with SyncClient(self.http.url) as client:
            session = client.start("sympy__sympy-13971", format="swe-agent", agent="CodeR", model="gpt-4")
            for event in events(doc):
                session.step(event)
            session.end()
            answer = self.http.rank([{"session": session.id, "id": "live"}, {"trajectory": doc, "id": "log"}],
                                    agent="CodeR", model="gpt-4")
        by_id = {r["id"]: r for r in answer["runs"]}
        self.assertEqual(by_id["live"]["steps"], by_id["log"]["steps"])
        self.assertEqual(by_id["live"]["composite"], by_id["log"]["composite"])

    def test_without_a_reference_reference_free_or_by_consensus(self):
        docs = [{"trajectory": support.read_json(p)} for p in OTHER_RUNS]
        free = self.http.rank(docs)
        self.assertEqual((free["task"], free["by"]), (OTHER_TASK, "reference-free"))
        agreed = self.http.rank(docs, consensus=True)
        self.assertEqual(agreed["by"], "consensus")
        for r in agreed["runs"]:
            self.assertGreaterEqual(r["consensus"], 0)
            self.assertLessEqual(r["consensus"], 1)
            self.assertEqual(r["score"], r["consensus"])
        self.assertEqual([r["consensus"] for r in agreed["runs"]], sorted((r["consensus"] for r in agreed["runs"]), reverse=True))

    def test_by_vote_on_normalised_final_patches(self):
        # SWE-agent with five models on fasterxml__jackson-databind-4486: three submit the same source change.
        models = ["deepseek-chat-v2", "deepseek-coder-v2", "doubao-pro-128k", "gpt-4o-2024-05-13", "gpt-4o-mini-2024-07-18"]
        runs = [{"trajectory": support.read_json(support.CORPUS / "multi-swe-bench__experiments/evaluation/java/verified"
                                                 / f"20240825_SWE-agent_{m}/trajs/fasterxml__jackson-databind-4486.traj"), "id": m}
                for m in models]
        answer = self.http.rank(runs, basis="vote")
        self.assertEqual(answer["by"], "vote")
        self.assertEqual([(r["id"], r["vote"]) for r in answer["runs"]],
                         [("deepseek-chat-v2", 3), ("deepseek-coder-v2", 3), ("gpt-4o-mini-2024-07-18", 3), ("doubao-pro-128k", 1), ("gpt-4o-2024-05-13", 1)])
        with self.assertRaises(SteplensError) as e:
            self.http.rank(runs, basis="vote", consensus=True)
        self.assertEqual(e.exception.code, "bad_message")

    def test_by_vote_over_sessions_ended_with_their_patch(self):
        # facebookresearch__hydra-1915, three SWE-agent runs: gpt-5 and qwen3-coder submit the same change.
        task = "facebookresearch__hydra-1915"
        traces = ["trace_01_gpt-5-2025-08-07", "trace_02_kimi-k2-instruct-0905", "trace_03_qwen3-coder-480b-a35b-instruct"]
        paths = [support.CORPUS / "christsakm__Trajectories/GOOD_EXAMPLES" / task / t / f"{task}.traj" for t in traces]
        files = self.http.rank([{"trajectory": support.read_json(p), "id": t} for p, t in zip(paths, traces)], basis="vote")
        self.assertEqual([(r["id"], r["vote"]) for r in files["runs"]], [(traces[2], 2), (traces[0], 2), (traces[1], 1)])
        finals = {}
        with SyncClient(self.http.url) as client:
            for path, trace in zip(paths, traces):
                steps = support.steplens_steps(path)
                # The diff the run's submit printed: what its driver would take from its sandbox at the end.
                diff = [s["observation"] for s in steps if s["action"]["kind"] == "finish" and "diff --git" in (s.get("observation") or "")][-1]
                session = client.start(task, session=f"py-vote-{trace}")
                for step in steps:
                    session.step(step)
                # A patch the client cannot send raises before anything is sent; one the server refuses leaves the session open.
                with self.assertRaises(SteplensError) as e:
                    session.end(patch=7)
                self.assertEqual(e.exception.code, "bad_input")
                with self.assertRaises(SteplensError) as e:
                    session.end(patch="x" * (512 * 1024 + 1))
                self.assertEqual(e.exception.code, "bad_input")
                self.assertIn("524288", str(e.exception))
                # Within the characters, not the frame: 3 bytes a character in UTF-8.
                with self.assertRaises(SteplensError) as e:
                    session.end(patch="\u20ac" * (512 * 1024))
                self.assertEqual(e.exception.code, "too_large")
                self.assertRegex(str(e.exception), r"end\.patch: 1572864 bytes in UTF-8 \(524288 characters\) make the end's frame \d+ bytes, over the frame limit of 1048576")
                with self.assertRaises(SteplensError) as e:
                    session.end(patch="M hydra/x.py")
                self.assertEqual(e.exception.code, "bad_message")
                self.assertIn("diff --git", str(e.exception))
                finals[trace] = session.end(patch=diff)
                self.assertEqual(finals[trace]["steps"], len(steps))
        self.assertEqual({t: f["patch"]["lines"] > 0 for t, f in finals.items()}, dict.fromkeys(traces, True))
        self.assertEqual(finals[traces[0]]["patch"], finals[traces[2]]["patch"])
        self.assertNotEqual(finals[traces[0]]["patch"], finals[traces[1]]["patch"])
        live = self.http.rank([{"session": f"py-vote-{t}", "id": t} for t in traces], basis="vote")
        self.assertEqual(live["by"], "vote")
        strip = lambda answer: [{k: v for k, v in r.items() if k != "index"} for r in answer["runs"]]
        self.assertEqual(strip(live), strip(files))

    def test_agent_and_model_are_sent_for_the_group_and_per_run(self):
        sent = []
        client = HttpClient(support.server_url())
        client.request = lambda method, path, body=None: sent.append((method, path, body)) or {}
        client.rank([{"trajectory": self.docs[0], "agent": "a", "model": "m"}], agent="mini-swe-agent", model="deepseek/deepseek-chat")
        (_, path, body), = sent
        self.assertEqual((path, body["agent"], body["model"]), ("/v1/rank", "mini-swe-agent", "deepseek/deepseek-chat"))
        self.assertEqual((body["runs"][0]["agent"], body["runs"][0]["model"]), ("a", "m"))

    def test_one_run_is_ranked_alone_and_more_than_64_are_refused_before_sending(self):
        # One run: accepted by the server (proto/README.md: 1 to 64 runs), ranked 1 and untied, its score on the basis.
        alone = self.http.rank([{"trajectory": self.docs[0]}])
        self.assertEqual((alone["by"], len(alone["runs"]), alone["unranked"]), ("pta", 1, []))
        run = alone["runs"][0]
        self.assertEqual((run["rank"], run["tied"], run["score"]), (1, False, self.single[0]["score"]["total"]))
        # 0 or 65 runs: bad_input naming the limit, and nothing sent (65 logs can be a body over the server's limit,
        # which it answers by closing the connection: `disconnected`, not the count).
        sent = []
        client = HttpClient(support.server_url())
        client.request = lambda method, path, body=None: sent.append(path) or {}
        for n in (0, 65):
            with self.assertRaises(SteplensError) as e:
                client.rank([{"trajectory": self.docs[0]}] * n)
            self.assertEqual(e.exception.code, "bad_input")
            self.assertIn(f"runs: {n} runs; a rank call takes 1 to 64 runs of one task", str(e.exception))
        self.assertEqual(sent, [])
        client.rank([{"trajectory": self.docs[0]}] * 64)
        self.assertEqual(sent, ["/v1/rank"])

    def test_errors_name_what_is_wrong(self):
        mixed = [{"trajectory": self.docs[0]}, {"trajectory": support.read_json(OTHER_RUNS[0])}]
        with self.assertRaises(SteplensError) as e:
            self.http.rank(mixed)
        self.assertEqual((e.exception.code, e.exception.status), ("mixed_tasks", 400))
        self.assertIn(OTHER_TASK, str(e.exception))
        self.assertIsNone(self.http.rank(mixed, mixed_tasks=True)["task"])
        with self.assertRaises(SteplensError) as e:
            self.http.rank([{"session": "no-such-session"}])
        self.assertEqual(e.exception.code, "unknown_session")
        self.assertIn("runs[0].session", str(e.exception))
        # The source is a trajectory's: a session was scored with the one its start named (the server says so).
        with self.assertRaises(SteplensError) as e:
            self.http.rank([{"session": "x", "agent": "mini-swe-agent"}])
        self.assertEqual(e.exception.code, "bad_message")
        self.assertIn("agent and model are for a trajectory", str(e.exception))
        for runs, message in [
            ([{"trajectory": self.docs[0], "session": "x"}], "runs[0]: give either"),
            ([{"trajectory": self.docs[0]}, {"id": "x"}], "runs[1]: give either"),
            ([{"trajectory": self.docs[0], "passed": True}], "runs[0]: unknown keys ['passed']"),
            ([self.docs[0]["messages"]], "runs[0]: expected a mapping"),
            ({"trajectory": self.docs[0]}, "runs: expected a list"),
        ]:
            with self.assertRaises(SteplensError) as e:
                self.http.rank(runs)
            self.assertEqual(e.exception.code, "bad_input")
            self.assertIn(message, str(e.exception))


#: A forecast file with an end-of-run model (test/fixtures/README.md: `steplens train --end-model` on the team's public
#: runs); the bundled forecaster has none.
END_MODEL = support.REPO / "test/fixtures/forecast-end/forecast-end.json.gz"


class RankModelTest(unittest.TestCase):
    """``rank(..., rank_model=)``: POST /v1/rank's ``rankModel`` against a server started with ``--forecast`` FILE
    holding an end-of-run model; its pPass is ``steplens rank --rank-model end --json``'s on the same files."""

    @classmethod
    def setUpClass(cls):
        cls.http = HttpClient(support.shared_server("--forecast", str(END_MODEL)))
        cls.paths = [*support.ASTROID_PASS, support.ASTROID_FAIL]
        cls.runs = [{"trajectory": support.read_json(p)} for p in cls.paths]

    def batch(self, *flags):
        out = subprocess.run(["node", str(support.CLI), "rank", "--json", "--forecast", str(END_MODEL), *flags, *map(str, self.paths)],
                             cwd=support.REPO, capture_output=True, text=True, check=True).stdout
        return json.loads(out)

    def test_end_model_ppass_is_the_cli_rank_end_models(self):
        answer = self.http.rank(self.runs, rank_model="end")
        self.assertEqual((answer["by"], answer["rankModel"]), ("pPass", "end"))
        self.assertEqual([r["pPassModel"] for r in answer["runs"]], ["end"] * 3)
        batch = self.batch("--rank-model", "end")
        self.assertEqual([(r["index"], r["pPass"]) for r in answer["runs"]], [(r["index"], r["pPass"]) for r in batch["runs"]])
        prefix = self.http.rank(self.runs, rank_model="prefix")
        self.assertEqual([(r["index"], r["pPass"]) for r in prefix["runs"]], [(r["index"], r["pPass"]) for r in self.batch()["runs"]])
        self.assertNotEqual(sorted(r["pPass"] for r in prefix["runs"]), sorted(r["pPass"] for r in answer["runs"]))
        # Not asked: as before, neither field.
        plain = self.http.rank(self.runs)
        self.assertNotIn("rankModel", plain)
        self.assertEqual([r.get("pPassModel") for r in plain["runs"]], [None] * 3)

    def test_a_session_keeps_the_prefix_model(self):
        with SyncClient(self.http.url) as client:
            session = client.start(support.ASTROID_TASK)
            for step in support.steplens_steps(support.ASTROID_FAIL):
                session.step(step)
            session.end()
            answer = self.http.rank([self.runs[0], {"session": session.id, "id": "live"}], rank_model="end")
        self.assertEqual({r["id"]: r["pPassModel"] for r in answer["runs"]}, {"runs[0]": "end", "live": "prefix"})

    def test_a_server_without_the_model_refuses_by_name(self):
        # The bundled forecaster has no end-of-run model; the plain server has no forecaster at all.
        for url, messages in [(support.shared_server("--forecast", "bundled"), ['rankModel "end": the server\'s forecast model', "has no end-of-run model"]),
                              (support.server_url(), ['rankModel "end": this server has no forecast model'])]:
            with self.assertRaises(SteplensError) as e:
                HttpClient(url).rank(self.runs, rank_model="end")
            self.assertEqual((e.exception.code, e.exception.status), ("no_forecast_model", 409))
            for message in messages:
                self.assertIn(message, str(e.exception))

    def test_rank_model_is_sent(self):
        sent = []
        client = HttpClient(support.server_url())
        client.request = lambda method, path, body=None: sent.append(body) or {}
        client.rank(self.runs[:1], rank_model="end")
        client.rank(self.runs[:1])
        self.assertEqual([b.get("rankModel") for b in sent], ["end", None])


if __name__ == "__main__":
    unittest.main()
