// runs the project's cost_step
