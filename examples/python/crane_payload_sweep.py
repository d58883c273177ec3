"""How heavy a load can the crane of scenes/crane.json lift, and how far does it swing when it slews?

A notebook-style script (cells marked ``# %%``: run it whole, or cell by cell
in an editor that knows them). For each load mass of a sweep it builds the
crane from its scene JSON with the mass replaced and the load slung under the
hook, lifts for 1.5 s with the hoist motor, then slews the turret for 2.5 s,
recording the hoist motor's effort and the load's swing. The plot goes to the
PNG named on the command line (default: crane_payload_sweep.png here).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/crane_payload_sweep.py [out.png]
"""
# %% Setup: the module, the scene, the sweep
import copy
import json
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt
import numpy as np

import pivot

SCENE = pathlib.Path(__file__).resolve().parents[2] / "scenes" / "crane.json"
OUTPUT = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path("crane_payload_sweep.png")
G = 9.81
HOOK_MASS = 100.0      # kg, scenes/crane.json
HOIST_MAX_FORCE = 12000.0  # N: the hoist motor's bound for this study (the scene's 3000 N lifts only the hook)
LIFT_SPEED = 0.25      # m/s, hook upwards (the hoist's coordinate points down: a negative velocity)
SLEW_SPEED = 0.2       # rad/s
LIFT_SECONDS, SLEW_SECONDS = 1.5, 2.5
masses = np.linspace(100.0, 2000.0, 12)  # kg

base = json.loads(SCENE.read_text())
engine = pivot.Engine()
print(f"pivot {pivot.__version__}: {SCENE.name}, bodies {[b['name'] for b in base['bodies']]}")


# %% The scene for one mass: the load under the hook on a 2.5 m sling
def crane_with_load(mass):
    """scenes/crane.json with the load of `mass` kg resting under the hook, slung from it by a distance joint."""
    scene = copy.deepcopy(base)
    load = next(b for b in scene["bodies"] if b["name"] == "load")
    scale = mass / load["mass"]                     # a box of the same size: inertia scales with the mass
    load["mass"] = mass
    load["inertia"] = [i * scale for i in load["inertia"]]
    load["position"] = [7.5, 0.0, 0.4]              # under the hook (7.5, 0, 3.5), on the ground
    hoist = next(j for j in scene["joints"] if j["name"] == "hoist")
    hoist["motor"] = {"velocity": 0.0, "max_force": HOIST_MAX_FORCE}
    scene["joints"].append({"name": "sling", "type": "distance", "body1": "hook", "body2": "load",
                            "anchor1": [7.5, 0.0, 3.3], "anchor2": [7.5, 0.0, 0.8]})
    return scene


# %% One run: lift, then slew; record every step
def run(mass):
    world = engine.scene_from_json(crane_with_load(mass))
    hook, load = world.find_body("hook"), world.find_body("load")
    hoist, slew = world.find_joint("hoist"), world.find_joint("slew")
    h = world.timestep
    world.set_motor_velocity(slew, 0.0)
    world.set_motor_velocity(hoist, -LIFT_SPEED)
    rows = []
    states = np.empty((world.body_count, 13))       # one buffer, refilled by the engine every step
    for k in range(round((LIFT_SECONDS + SLEW_SECONDS) / h)):
        if k == round(LIFT_SECONDS / h):
            world.set_motor_velocity(hoist, 0.0)
            world.set_motor_velocity(slew, SLEW_SPEED)
        world.step()
        world.body_states(out=states)
        sling = states[load, :3] - states[hook, :3]
        swing = np.degrees(np.arctan2(np.hypot(sling[0], sling[1]), -sling[2]))
        rows.append((world.time, world.joint_motor_effort(hoist), states[load, 2], swing))
    stats = world.statistics()
    assert stats["solver_failures"] == 0, stats
    return np.array(rows)


runs = {mass: run(mass) for mass in masses}


# %% Results: the motor's effort while lifting, the height gained, the swing while slewing
def lifting(r):
    return (r[:, 0] > 0.5) & (r[:, 0] <= LIFT_SECONDS)   # off the ground, at constant speed


effort = np.array([-runs[m][lifting(runs[m]), 1].mean() for m in masses])      # N, upwards
lift = np.array([runs[m][lifting(runs[m]), 2][-1] - 0.4 for m in masses])       # m, at the end of the lift
lifted = lift > 0.1                                  # the others stayed on the ground: their sling just leans
swing = np.array([runs[m][runs[m][:, 0] > LIFT_SECONDS, 3].max() for m in masses])  # degrees
swing[~lifted] = np.nan
capacity = HOIST_MAX_FORCE / G - HOOK_MASS
for m, e, dz, s in zip(masses, effort, lift, swing):
    print(f"{m:7.0f} kg: hoist {e:8.0f} N, lifted {dz:5.2f} m" + (f", swing up to {s:4.1f} deg" if s == s else ""))
print(f"capacity: {HOIST_MAX_FORCE:.0f} N / g - hook = {capacity:.0f} kg")

# %% Plot
fig, axes = plt.subplots(2, 2, figsize=(11, 8), constrained_layout=True)
ax = axes[0, 0]
for m in masses[lifted][::2]:  # a load left on the ground shares its weight with the ground as it likes
    ax.plot(runs[m][:, 0], -runs[m][:, 1] / 1000, label=f"{m:.0f} kg")
ax.axvline(LIFT_SECONDS, color="gray", ls=":")
ax.set(xlabel="time (s)", ylabel="hoist motor force, up (kN)", title="Hoist effort: lift, then slew")
ax.legend()
ax = axes[0, 1]
ax.plot(masses, effort / 1000, "o-", label="simulated (while lifting)")
ax.plot(masses, np.minimum((masses + HOOK_MASS) * G, HOIST_MAX_FORCE) / 1000, "k--", label="min((m + hook) g, bound)")
ax.set(xlabel="load mass (kg)", ylabel="kN", title="Hoist force against the load's weight")
ax.legend()
ax = axes[1, 0]
ax.plot(masses, lift, "o-")
ax.axvline(capacity, color="gray", ls=":", label=f"capacity {capacity:.0f} kg")
ax.set(xlabel="load mass (kg)", ylabel="height gained (m)", title=f"Lift in {LIFT_SECONDS} s at {LIFT_SPEED} m/s")
ax.legend()
ax = axes[1, 1]
ax.plot(masses, swing, "o-")
ax.set(xlabel="load mass (kg)", ylabel="largest swing (deg)", xlim=axes[1, 0].get_xlim(),
       title=f"Swing of the lifted loads while slewing at {SLEW_SPEED} rad/s")
fig.savefig(OUTPUT, dpi=100)
print(f"wrote {OUTPUT}")
