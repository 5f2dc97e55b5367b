// test_elicitation: asks the user for a user name and an email with the caller's message.
export default async (input, context) => {
  const answer = await context.elicit(input.message, {
    type: 'object',
    properties: {
      username: { type: 'string', description: "User's response" },
      email: { type: 'string', description: "User's email address" },
    },
    required: ['username', 'email'],
  });
  return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
};
